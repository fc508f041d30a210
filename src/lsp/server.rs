//! The server's state (the open documents) and the answer to each message.

use super::diagnostics;
use super::index::{ChainIndex, DefinitionKind, FileIndex};
use super::text::{path_to_uri, uri_to_path, LineIndex};
use super::{completion, describe};
use lsp_server::{ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types::{
    notification::{self, Notification as _},
    request::{self, Request as _},
    CompletionResponse, DocumentSymbol, DocumentSymbolResponse, GotoDefinitionResponse, Hover,
    HoverContents, HoverProviderCapability, InitializeResult, Location, MarkupContent, MarkupKind,
    OneOf, PublishDiagnosticsParams, ServerCapabilities, ServerInfo, SymbolKind,
    TextDocumentPositionParams, TextDocumentSyncCapability, TextDocumentSyncKind, TextEdit, Uri,
};
use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

/// An open document.
struct Document {
    uri: Uri,
    text: String,
}

impl Document {
    /// The document's path: the `file:` URI's, or a name in the current
    /// folder for an unsaved buffer.
    fn path(&self) -> PathBuf {
        uri_to_path(&self.uri).unwrap_or_else(|| PathBuf::from("untitled.rules"))
    }
}

/// The server: open documents and the protocol's life cycle.
#[derive(Default)]
pub struct Server {
    documents: HashMap<String, Document>,
    initialized: bool,
    shutting_down: bool,
    exited: bool,
}

/// The most sibling files read to find references in variants that extend
/// the current one.
const MAX_SIBLINGS: usize = 256;

impl Server {
    /// Whether the client said `exit`.
    pub fn exited(&self) -> bool {
        self.exited
    }

    /// The messages to send in answer to `message`. A bug in a handler is
    /// answered as an internal error; the server keeps serving.
    pub fn handle(&mut self, message: Message) -> Vec<Message> {
        match message {
            Message::Request(request) => {
                let id = request.id.clone();
                let answer = catch_unwind(AssertUnwindSafe(|| self.request(request)));
                vec![Message::Response(answer.unwrap_or_else(|_| {
                    Response::new_err(id, ErrorCode::InternalError as i32, "internal error".into())
                }))]
            }
            Message::Notification(note) => {
                catch_unwind(AssertUnwindSafe(|| self.notification(note))).unwrap_or_default()
            }
            Message::Response(_) => Vec::new(),
        }
    }

    fn request(&mut self, request: Request) -> Response {
        let id = request.id.clone();
        if request.method == request::Initialize::METHOD {
            self.initialized = true;
            return ok(id, initialize_result());
        }
        if !self.initialized {
            return error(id, ErrorCode::ServerNotInitialized, "initialize first");
        }
        if request.method == request::Shutdown::METHOD {
            self.shutting_down = true;
            return ok(id, serde_json::Value::Null);
        }
        if self.shutting_down {
            return error(id, ErrorCode::InvalidRequest, "the server is shutting down");
        }
        let params = request.params;
        let answer = match request.method.as_str() {
            request::HoverRequest::METHOD => parse(params).map(|p| to_json(self.hover(&p))),
            request::GotoDefinition::METHOD => parse(params).map(|p| to_json(self.definition(&p))),
            request::References::METHOD => parse::<lsp_types::ReferenceParams>(params)
                .map(|p| to_json(self.references(&p.text_document_position))),
            request::Completion::METHOD => parse::<lsp_types::CompletionParams>(params)
                .map(|p| to_json(self.completion(&p.text_document_position))),
            request::DocumentSymbolRequest::METHOD => {
                parse::<lsp_types::DocumentSymbolParams>(params)
                    .map(|p| to_json(self.symbols(&p.text_document.uri)))
            }
            request::Formatting::METHOD => parse::<lsp_types::DocumentFormattingParams>(params)
                .map(|p| to_json(self.formatting(&p.text_document.uri))),
            method => {
                return error(
                    id,
                    ErrorCode::MethodNotFound,
                    &format!("unknown method {method}"),
                )
            }
        };
        match answer {
            Ok(value) => ok(id, value),
            Err(reason) => error(id, ErrorCode::InvalidParams, &reason),
        }
    }

    fn notification(&mut self, note: Notification) -> Vec<Message> {
        match note.method.as_str() {
            notification::Exit::METHOD => {
                self.exited = true;
                Vec::new()
            }
            notification::DidOpenTextDocument::METHOD => {
                let Ok(params) = parse::<lsp_types::DidOpenTextDocumentParams>(note.params) else {
                    return Vec::new();
                };
                let uri = params.text_document.uri;
                self.open(uri.clone(), params.text_document.text);
                self.publish(&uri).into_iter().collect()
            }
            notification::DidChangeTextDocument::METHOD => {
                let Ok(params) = parse::<lsp_types::DidChangeTextDocumentParams>(note.params)
                else {
                    return Vec::new();
                };
                // Full synchronisation: the last change holds the whole text.
                let Some(change) = params.content_changes.into_iter().last() else {
                    return Vec::new();
                };
                let uri = params.text_document.uri;
                self.open(uri.clone(), change.text);
                self.publish(&uri).into_iter().collect()
            }
            notification::DidSaveTextDocument::METHOD => {
                // A saved parent changes what its children compile to.
                let uris: Vec<Uri> = self.documents.values().map(|d| d.uri.clone()).collect();
                uris.iter().filter_map(|uri| self.publish(uri)).collect()
            }
            notification::DidCloseTextDocument::METHOD => {
                let Ok(params) = parse::<lsp_types::DidCloseTextDocumentParams>(note.params) else {
                    return Vec::new();
                };
                let uri = params.text_document.uri;
                self.documents.remove(uri.as_str());
                vec![publish_message(uri, Vec::new())]
            }
            _ => Vec::new(),
        }
    }

    fn open(&mut self, uri: Uri, text: String) {
        self.documents
            .insert(uri.as_str().to_string(), Document { uri, text });
    }

    /// The diagnostics of document `uri`, as a notification.
    fn publish(&self, uri: &Uri) -> Option<Message> {
        let document = self.documents.get(uri.as_str())?;
        let diagnostics = match diagnostics::check(&document.path(), &document.text) {
            Ok(checked) => diagnostics::warnings_to_protocol(&checked, uri),
            Err(error) => diagnostics::to_protocol(&error, uri),
        };
        Some(publish_message(uri.clone(), diagnostics))
    }

    /// The index of document `uri` and its `extends` chain (parents read
    /// from open documents first, then from disk).
    fn chain(&self, uri: &Uri) -> Option<ChainIndex> {
        let document = self.documents.get(uri.as_str())?;
        let open_text = |path: &Path| self.open_text(path);
        Some(ChainIndex::new(
            &document.path(),
            document.text.clone(),
            &open_text,
        ))
    }

    fn open_text(&self, path: &Path) -> Option<String> {
        self.documents
            .values()
            .find(|d| uri_to_path(&d.uri).as_deref() == Some(path))
            .map(|d| d.text.clone())
    }

    /// The URI of an indexed file: the document's own for the first file
    /// of a chain (it may not be a `file:` URI), else its path's.
    fn uri_of(&self, chain: &ChainIndex, file: &FileIndex, document: &Uri) -> Option<Uri> {
        if chain
            .files
            .first()
            .is_some_and(|first| first.path == file.path)
        {
            Some(document.clone())
        } else {
            path_to_uri(&file.path)
        }
    }

    /// The name at a position and the chain it is read in.
    fn name_at(&self, at: &TextDocumentPositionParams) -> Option<(ChainIndex, String)> {
        let chain = self.chain(&at.text_document.uri)?;
        let file = chain.files.first()?;
        let offset = LineIndex::new(&file.text).offset(at.position);
        let (name, _) = file.name_at(offset)?;
        let name = name.to_string();
        Some((chain, name))
    }

    fn hover(&self, at: &TextDocumentPositionParams) -> Option<Hover> {
        let (chain, name) = self.name_at(at)?;
        let (file, definition) = chain.definitions_of(&name).next()?;
        let document = self.documents.get(at.text_document.uri.as_str())?;
        let model = diagnostics::compile(&document.path(), &document.text).ok();
        let from_model = model.as_ref().and_then(|variant| match definition.kind {
            DefinitionKind::Piece => variant
                .pieces
                .iter()
                .find(|p| p.name == name)
                .map(|piece| describe::piece(variant, piece)),
            DefinitionKind::Region => variant
                .regions
                .iter()
                .find(|r| r.name == name)
                .map(|region| describe::region(variant, region)),
            _ => None,
        });
        // Without a model (the file has errors) or for other names, the
        // defining statement itself.
        let text = from_model.unwrap_or_else(|| {
            let statement = file
                .text
                .get(definition.statement.start..definition.statement.end)
                .unwrap_or("");
            format!(
                "**{} `{name}`**\n\n```varc\n{statement}\n```\n",
                definition.kind.describe()
            )
        });
        Some(Hover {
            contents: HoverContents::Markup(MarkupContent {
                kind: MarkupKind::Markdown,
                value: text,
            }),
            range: None,
        })
    }

    fn definition(&self, at: &TextDocumentPositionParams) -> Option<GotoDefinitionResponse> {
        let (chain, name) = self.name_at(at)?;
        let locations: Vec<Location> = chain
            .definitions_of(&name)
            .filter_map(|(file, definition)| {
                let uri = self.uri_of(&chain, file, &at.text_document.uri)?;
                let range =
                    LineIndex::new(&file.text).range(definition.span.start, definition.span.end);
                Some(Location::new(uri, range))
            })
            .collect();
        (!locations.is_empty()).then_some(GotoDefinitionResponse::Array(locations))
    }

    /// Uses and definitions of the name at `at`, in the document's chain and
    /// in the files of its folder that extend it.
    fn references(&self, at: &TextDocumentPositionParams) -> Option<Vec<Location>> {
        let (chain, name) = self.name_at(at)?;
        let mut files: Vec<(Uri, &FileIndex)> = chain
            .files
            .iter()
            .filter_map(|file| Some((self.uri_of(&chain, file, &at.text_document.uri)?, file)))
            .collect();
        let children = self.children_of(&chain);
        files.extend(
            children
                .iter()
                .filter_map(|file| Some((path_to_uri(&file.path)?, file))),
        );
        let mut locations = Vec::new();
        for (uri, file) in files {
            let lines = LineIndex::new(&file.text);
            let spans = file
                .definitions
                .iter()
                .map(|d| (&d.name, d.span))
                .chain(file.references.iter().map(|r| (&r.name, r.span)));
            for (_, span) in spans.filter(|(n, _)| **n == name) {
                locations.push(Location::new(
                    uri.clone(),
                    lines.range(span.start, span.end),
                ));
            }
        }
        Some(locations)
    }

    /// The files of the document's folder whose `extends` chain goes
    /// through the document (not the document's own chain).
    fn children_of(&self, chain: &ChainIndex) -> Vec<FileIndex> {
        let Some(document) = chain.files.first() else {
            return Vec::new();
        };
        let Some(dir) = document.path.parent() else {
            return Vec::new();
        };
        let Ok(entries) = std::fs::read_dir(dir) else {
            return Vec::new();
        };
        let in_chain: Vec<&Path> = chain.files.iter().map(|f| f.path.as_path()).collect();
        let open_text = |path: &Path| self.open_text(path);
        entries
            .filter_map(Result::ok)
            .map(|entry| entry.path())
            .filter(|path| path.extension().is_some_and(|e| e == "rules"))
            .filter(|path| !in_chain.contains(&path.as_path()))
            .take(MAX_SIBLINGS)
            .filter_map(|path| {
                let text = self
                    .open_text(&path)
                    .or_else(|| super::index::read_rules(&path))?;
                let sibling = ChainIndex::new(&path, text, &open_text);
                let extends_document = sibling
                    .files
                    .iter()
                    .skip(1)
                    .any(|f| f.path == document.path);
                extends_document
                    .then(|| sibling.files.into_iter().next())
                    .flatten()
            })
            .collect()
    }

    fn completion(&self, at: &TextDocumentPositionParams) -> Option<CompletionResponse> {
        let chain = self.chain(&at.text_document.uri)?;
        Some(CompletionResponse::Array(completion::items(&chain)))
    }

    fn symbols(&self, uri: &Uri) -> Option<DocumentSymbolResponse> {
        let chain = self.chain(uri)?;
        let file = chain.files.first()?;
        let lines = LineIndex::new(&file.text);
        let symbols = file
            .definitions
            .iter()
            .map(|definition| {
                #[allow(deprecated)] // `deprecated` is a required field of the struct.
                DocumentSymbol {
                    name: definition.name.clone(),
                    detail: Some(definition.kind.describe().to_string()),
                    kind: match definition.kind {
                        DefinitionKind::Variant => SymbolKind::MODULE,
                        DefinitionKind::Piece => SymbolKind::CLASS,
                        DefinitionKind::Region => SymbolKind::ENUM_MEMBER,
                        DefinitionKind::Counter => SymbolKind::VARIABLE,
                        DefinitionKind::Label => SymbolKind::KEY,
                    },
                    tags: None,
                    deprecated: None,
                    range: lines.range(definition.statement.start, definition.statement.end),
                    selection_range: lines.range(definition.span.start, definition.span.end),
                    children: None,
                }
            })
            .collect();
        Some(DocumentSymbolResponse::Nested(symbols))
    }

    /// One edit replacing the whole text by its formatted form; none if
    /// it is formatted or does not parse.
    fn formatting(&self, uri: &Uri) -> Option<Vec<TextEdit>> {
        let document = self.documents.get(uri.as_str())?;
        let formatted = crate::fmt::format(0, &document.text).ok()?;
        if formatted == document.text {
            return Some(Vec::new());
        }
        let range = LineIndex::new(&document.text).whole();
        Some(vec![TextEdit::new(range, formatted)])
    }
}

fn initialize_result() -> InitializeResult {
    InitializeResult {
        capabilities: ServerCapabilities {
            text_document_sync: Some(TextDocumentSyncCapability::Kind(TextDocumentSyncKind::FULL)),
            hover_provider: Some(HoverProviderCapability::Simple(true)),
            definition_provider: Some(OneOf::Left(true)),
            references_provider: Some(OneOf::Left(true)),
            completion_provider: Some(lsp_types::CompletionOptions::default()),
            document_symbol_provider: Some(OneOf::Left(true)),
            document_formatting_provider: Some(OneOf::Left(true)),
            ..ServerCapabilities::default()
        },
        server_info: Some(ServerInfo {
            name: "varc".to_string(),
            version: Some(env!("CARGO_PKG_VERSION").to_string()),
        }),
    }
}

fn publish_message(uri: Uri, diagnostics: Vec<lsp_types::Diagnostic>) -> Message {
    Message::Notification(Notification::new(
        notification::PublishDiagnostics::METHOD.to_string(),
        PublishDiagnosticsParams {
            uri,
            diagnostics,
            version: None,
        },
    ))
}

fn parse<T: serde::de::DeserializeOwned>(params: serde_json::Value) -> Result<T, String> {
    serde_json::from_value(params).map_err(|e| format!("invalid parameters: {e}"))
}

fn to_json(value: impl serde::Serialize) -> serde_json::Value {
    serde_json::to_value(value).unwrap_or(serde_json::Value::Null)
}

fn ok(id: RequestId, result: impl serde::Serialize) -> Response {
    Response::new_ok(id, result)
}

fn error(id: RequestId, code: ErrorCode, message: &str) -> Response {
    Response::new_err(id, code as i32, message.to_string())
}
