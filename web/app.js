// The page's logic: it asks the server for everything (legal moves, SAN,
// results, refusals, diagnostics) and only draws and sends moves.
"use strict";

const $ = (id) => document.getElementById(id);

const page = {
  variantId: null,   // the file shown
  variant: null,     // its description (board, pieces, regions)
  version: null,     // the file's version token, for saving
  state: null,       // the game's state from the server
  gameId: null,
  flipped: false,
  selected: null,    // the square of the piece picked up
  selectedDrop: null, // or the letter of the piece picked from the hand
  hovered: null,
  busy: false,
  checkTimer: null,
  checkSeq: 0,
  loadSeq: 0,
  clockTimer: null,
  shownAt: 0,
};

async function api(method, path, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(path, options);
  let data;
  try { data = await response.json(); } catch (e) { data = { error: `HTTP ${response.status}` }; }
  if (!response.ok) {
    const error = new Error(data.error || `HTTP ${response.status}`);
    error.data = data;
    error.status = response.status;
    throw error;
  }
  return data;
}

function setStatus(text, kind) {
  const status = $("status");
  status.textContent = text;
  status.className = kind || "";
}

function refusalText(error) {
  const reason = error.data && error.data.reason;
  return reason ? `Refused: ${reason}` : `Refused: ${error.message}`;
}

// ---- variants -------------------------------------------------------

async function loadVariantList() {
  const list = await api("GET", "/api/variants");
  const select = $("variant");
  select.replaceChildren();
  for (const v of list.variants) {
    const option = document.createElement("option");
    option.value = v.id;
    option.textContent = v.valid ? v.name : `${v.id} (has errors)`;
    select.appendChild(option);
  }
  const fromHash = decodeURIComponent(location.hash.slice(1));
  const wanted = [fromHash, list.initial, "chess"].find((id) => id && list.variants.some((v) => v.id === id));
  select.value = wanted || (list.variants[0] && list.variants[0].id) || "";
  if (select.value) await openVariant(select.value);
}

async function openVariant(id) {
  // A later choice wins over an earlier one still loading.
  const sequence = ++page.loadSeq;
  const data = await api("GET", `/api/variants/${encodeURIComponent(id)}`);
  if (sequence !== page.loadSeq) return;
  page.variantId = id;
  page.version = data.version;
  $("rules-editor").value = data.source;
  location.hash = id;
  if (data.variant) {
    showDiagnostics([]);
    useVariant(data.variant);
    await newGame(undefined, sequence);
  } else {
    showDiagnostics(data.diagnostics || []);
    page.variant = null;
    page.state = null;
    $("board").replaceChildren();
    setStatus("The rules have errors: fix them in the editor to play.", "error");
  }
}

function useVariant(variant) {
  page.variant = variant;
  const regions = $("regions");
  const current = regions.value;
  regions.replaceChildren(new Option("none", ""));
  for (const region of variant.regions) {
    for (const color of ["white", "black"]) regions.appendChild(new Option(`${region.name} (${color})`, `${region.name}:${color}`));
  }
  if ([...regions.options].some((o) => o.value === current)) regions.value = current;
}

// ---- games ----------------------------------------------------------

async function newGame(extra, sequence) {
  if (sequence === undefined) sequence = ++page.loadSeq;
  const body = Object.assign({ variant: page.variantId }, extra || {});
  const clock = $("clock").value.trim();
  if (clock && !body.record) body.clock = clock;
  try {
    const state = await api("POST", "/api/games", body);
    if (sequence !== page.loadSeq) return;
    page.gameId = state.game_id;
    if (state.variant_info) useVariant(state.variant_info);
    page.selected = null;
    showState(state);
    await maybeEngine();
  } catch (error) {
    if (error.data && error.data.diagnostics) showDiagnostics(error.data.diagnostics);
    setStatus(refusalText(error), "error");
  }
}

function engineColor() {
  const value = $("opponent").value;
  return value === "friend" ? null : value;
}

async function maybeEngine() {
  const state = page.state;
  if (!state || state.status !== "ongoing" || state.side_to_move !== engineColor()) return;
  await engineMove();
}

async function engineMove() {
  if (!page.gameId || page.busy) return;
  page.busy = true;
  setStatus(`${page.state.side_to_move} (engine) thinks…`);
  const limit = Math.max(1, Number($("engine-limit").value) || 300);
  const body = $("engine-mode").value === "depth" ? { depth: limit } : { movetime_ms: limit };
  try {
    showState(await api("POST", `/api/games/${page.gameId}/engine`, body));
  } catch (error) {
    setStatus(refusalText(error), "error");
  } finally {
    page.busy = false;
  }
}

async function sendMove(text) {
  if (!page.gameId || page.busy) return;
  page.busy = true;
  try {
    showState(await api("POST", `/api/games/${page.gameId}/move`, { move: text }));
  } catch (error) {
    page.selected = null;
    redraw();
    setStatus(refusalText(error), "error");
    page.busy = false;
    return;
  }
  page.busy = false;
  await maybeEngine();
}

async function sendAction(action, extra) {
  if (!page.gameId || page.busy) return;
  try {
    showState(await api("POST", `/api/games/${page.gameId}/action`, Object.assign({ action }, extra || {})));
    if (action === "offer") await maybeEngine();
  } catch (error) {
    setStatus(refusalText(error), "error");
  }
}

function showState(state) {
  page.state = state;
  page.shownAt = Date.now();
  // Which game the board shows (a hook for tests).
  $("board").dataset.variant = state.variant;
  $("board").dataset.game = state.game_id;
  $("fen").value = state.fen;
  const moves = $("moves");
  moves.replaceChildren();
  let number = 1;
  for (const [index, step] of state.steps.entries()) {
    const item = document.createElement("li");
    item.textContent = step.text;
    item.dataset.by = step.by;
    // The move number is drawn by the style sheet, outside the text.
    if (step.by === "white" || index === 0) item.dataset.number = step.by === "white" ? `${number}.` : `${number}…`;
    if (step.by === "black") number += 1;
    moves.appendChild(item);
  }
  moves.scrollTop = moves.scrollHeight;
  if (state.status === "ended") {
    setStatus(`Game over: ${state.result} — ${state.reason} (score ${state.score_text})`, "over");
  } else {
    let text = `${state.side_to_move} to move` + (state.in_check ? " — check!" : "");
    if (state.pending_offer) text += ` — ${state.pending_offer} offers a draw`;
    if (state.claims.length) text += ` — may claim: ${state.claims.map((c) => `${c.reason} (${c.result})`).join(", ")}`;
    setStatus(text);
  }
  showClocks();
  redraw();
}

// ---- clocks ---------------------------------------------------------

function formatClock(ms) {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

function showClocks() {
  const state = page.state;
  const clocks = $("clocks");
  if (!state || !state.clock_ms) { clocks.hidden = true; return; }
  clocks.hidden = false;
  const running = state.status === "ongoing" ? state.side_to_move : null;
  for (const color of ["white", "black"]) {
    let ms = state.clock_ms[color];
    if (color === running) ms -= Date.now() - page.shownAt;
    const element = $(`clock-${color}`);
    element.textContent = `${color} ${formatClock(ms)}`;
    element.className = color === running ? "running" : "";
    if (color === running && ms <= 0 && !page.busy) {
      page.shownAt = Date.now();
      sendAction("time");
    }
  }
}

// ---- the board ------------------------------------------------------

function movesFrom(square) {
  if (!page.state || page.state.status !== "ongoing") return [];
  return page.state.legal.filter((m) => m.from === square && !m.drop);
}

// The legal drops of the piece with FEN letter `letter` from the hand.
function dropsOf(letter) {
  if (!page.state || page.state.status !== "ongoing") return [];
  return page.state.legal.filter((m) => m.drop && m.drop.toLowerCase() === letter.toLowerCase());
}

// Each side's hand (variants with drops), the side at the board's bottom
// below it. A piece of the side to move's hand is picked by a click, then
// dropped by a click on a square.
function drawHands() {
  const hands = page.state.hands || { white: [], black: [] };
  const inUse = page.variant.hands;
  const [top, bottom] = page.flipped ? ["white", "black"] : ["black", "white"];
  for (const [id, color] of [["hand-top", top], ["hand-bottom", bottom]]) {
    const host = $(id);
    host.hidden = !inUse;
    if (!inUse) continue;
    host.dataset.color = color;
    const label = document.createElement("span");
    label.className = "label";
    label.textContent = `${color}'s hand`;
    const children = [label];
    for (const piece of hands[color]) {
      const button = document.createElement("button");
      button.type = "button";
      button.dataset.handPiece = piece.letter;
      const kind = page.variant.pieces[piece.kind];
      button.title = `${color} ${kind ? kind.name : "?"} in hand: ${piece.count}`;
      const playable = color === page.state.side_to_move && dropsOf(piece.letter).length > 0;
      button.disabled = !playable;
      if (page.selectedDrop === piece.letter) button.classList.add("selected");
      button.innerHTML = `<svg viewBox="0 0 100 100" width="46" height="46">${pieceSvg(kind, color, false)}</svg><span class="count">${piece.count}</span>`;
      button.addEventListener("click", () => {
        page.selected = null;
        page.selectedDrop = page.selectedDrop === piece.letter ? null : piece.letter;
        redraw();
      });
      children.push(button);
    }
    host.replaceChildren(...children);
  }
}

function redraw() {
  if (!page.variant || !page.state) return;
  const highlights = {};
  const mark = (square, name) => { highlights[square] = highlights[square] ? `${highlights[square]} ${name}` : name; };
  if (page.state.last_move) for (const square of page.state.last_move) mark(square, "last");
  for (const square of page.state.checked_royal || []) mark(square, "check");
  let targets = null;
  if (page.selectedDrop) {
    targets = new Set(dropsOf(page.selectedDrop).map((m) => m.to));
  } else if (page.selected) {
    mark(page.selected, "selected");
    targets = new Set(movesFrom(page.selected).map((m) => m.to));
  } else if (page.hovered && page.state.reach[page.hovered]) {
    mark(page.hovered, "hover");
    targets = new Set(page.state.reach[page.hovered]);
  }
  const [regionName, regionSide] = $("regions").value.split(":");
  const region = page.variant.regions.find((r) => r.name === regionName);
  const overlay = region ? region[regionSide] || [] : [];
  drawBoard($("board"), page.variant, page.state.board, {
    flipped: page.flipped, highlights, targets, overlay, dragging: drag && drag.moved ? drag.from : null,
  });
  drawHands();
}

function pieceOn(square) {
  return page.state && page.state.board.find((p) => p.square === square);
}

// A click (or a drop) on `square`.
function squareChosen(square) {
  if (!page.state || page.busy) return;
  if (page.selectedDrop) {
    const letter = page.selectedDrop;
    page.selectedDrop = null;
    const drop = dropsOf(letter).find((m) => m.to === square);
    if (drop) sendMove(drop.uci);
    else if (!pieceOn(square)) sendMove(`${letter.toUpperCase()}@${square}`);
    else redraw();
    if (drop || !pieceOn(square)) return;
  }
  if (!page.selected) {
    const piece = pieceOn(square);
    if (piece && piece.color === page.state.side_to_move && page.state.status === "ongoing") {
      page.selected = square;
      redraw();
    }
    return;
  }
  const from = page.selected;
  const options = movesFrom(from).filter((m) => m.to === square);
  if (square === from && options.length === 0) {
    page.selected = null;
    redraw();
    return;
  }
  const piece = pieceOn(square);
  if (options.length === 0 && piece && piece.color === page.state.side_to_move) {
    page.selected = square;
    redraw();
    return;
  }
  page.selected = null;
  if (options.length === 0) {
    // Not among the legal moves: the server says why.
    sendMove(from + square);
  } else if (options.length === 1 && !options[0].delayed) {
    sendMove(options[0].uci);
  } else {
    choose(options);
  }
}

function describeOption(move) {
  const parts = [];
  if (move.crown) parts.push(`crown ${move.crown}`);
  if (move.delayed) parts.push(move.from === move.to ? "promote and stay" : "promote, then move");
  else if (move.promotion) parts.push(`promote to ${move.promotion}`);
  else if (page.state.legal.some((m) => m.from === move.from && m.to === move.to && m.promotion)) parts.push("no promotion");
  return parts.join(", ");
}

// The chooser for promotions, delayed promotions and successions.
function choose(options) {
  const list = $("chooser-options");
  list.replaceChildren();
  for (const move of options) {
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.move = move.uci;
    const kind = move.promotion && page.variant.pieces.find((p) => p.letter === move.promotion);
    if (kind) {
      const icon = document.createElementNS(SVG_NS, "svg");
      icon.setAttribute("viewBox", "0 0 100 100");
      icon.setAttribute("width", "32");
      icon.setAttribute("height", "32");
      icon.innerHTML = pieceSvg(kind, page.state.side_to_move, false);
      button.appendChild(icon);
    }
    button.appendChild(document.createTextNode(` ${move.san} `));
    const detail = describeOption(move);
    if (detail) button.title = detail;
    button.addEventListener("click", () => { $("chooser").hidden = true; sendMove(move.uci); });
    list.appendChild(button);
  }
  $("chooser").hidden = false;
}

// Dragging: press on a piece, release on a square; a press and release on
// the same square is a click.
let drag = null;

function installBoardInput() {
  const board = $("board");
  board.addEventListener("pointerdown", (event) => {
    const square = squareAt(event.clientX, event.clientY);
    if (!square) return;
    const piece = pieceOn(square);
    const movable = piece && page.state.status === "ongoing" && piece.color === page.state.side_to_move;
    drag = movable ? { from: square, moved: false, x: event.clientX, y: event.clientY, piece } : null;
  });
  window.addEventListener("pointermove", (event) => {
    if (drag) {
      if (!drag.moved && Math.hypot(event.clientX - drag.x, event.clientY - drag.y) > 6) {
        drag.moved = true;
        page.selected = drag.from;
        redraw();
        const ghost = document.createElement("div");
        ghost.id = "drag-ghost";
        ghost.innerHTML = `<svg viewBox="0 0 100 100" width="60" height="60">${pieceSvg(page.variant.pieces[drag.piece.kind], drag.piece.color, drag.piece.promoted)}</svg>`;
        document.body.appendChild(ghost);
      }
      const ghost = $("drag-ghost");
      if (ghost) { ghost.style.left = `${event.clientX - 30}px`; ghost.style.top = `${event.clientY - 30}px`; }
      return;
    }
    const square = board.contains(event.target) ? squareAt(event.clientX, event.clientY) : null;
    const hovered = square && pieceOn(square) ? square : null;
    if (hovered !== page.hovered) { page.hovered = hovered; if (!page.selected) redraw(); }
  });
  window.addEventListener("pointerup", (event) => {
    const ghost = $("drag-ghost");
    if (ghost) ghost.remove();
    const square = squareAt(event.clientX, event.clientY);
    if (drag && drag.moved) {
      const from = drag.from;
      drag = null;
      page.selected = from;
      if (square && square !== from) squareChosen(square);
      else { page.selected = null; redraw(); }
      return;
    }
    drag = null;
    if (square && board.contains(event.target)) squareChosen(square);
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape") { page.selected = null; page.selectedDrop = null; $("chooser").hidden = true; redraw(); }
  });
}

// ---- the rules editor ----------------------------------------------

function escapeHtml(text) {
  return text.replace(/[&<>]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;" })[c]);
}

// Marks the spans of the editor's own file (byte offsets) in the backdrop.
function markSpans(diagnostics) {
  const text = $("rules-editor").value;
  const bytes = new TextEncoder().encode(text);
  const decoder = new TextDecoder();
  const charAt = (byte) => decoder.decode(bytes.slice(0, Math.min(byte, bytes.length))).length;
  const spans = diagnostics.filter((d) => d.file_index === 0)
    .map((d) => [charAt(d.start), Math.max(charAt(d.end), charAt(d.start) + 1)])
    .sort((a, b) => a[0] - b[0]);
  let html = "";
  let at = 0;
  for (const [start, end] of spans) {
    if (start < at) continue;
    html += escapeHtml(text.slice(at, start));
    const marked = text.slice(start, Math.min(end, text.length)) || " ";
    html += `<mark>${escapeHtml(marked)}</mark>`;
    at = Math.min(end, text.length);
  }
  html += escapeHtml(text.slice(at)) + "\n";
  $("rules-backdrop").innerHTML = html;
  syncScroll();
}

function syncScroll() {
  $("rules-backdrop").scrollTop = $("rules-editor").scrollTop;
  $("rules-backdrop").scrollLeft = $("rules-editor").scrollLeft;
}

function showDiagnostics(diagnostics) {
  const list = $("diagnostics");
  list.replaceChildren();
  for (const d of diagnostics) {
    const item = document.createElement("li");
    item.className = d.severity === "warning" ? "diagnostic warning" : "diagnostic";
    const where = document.createElement("span");
    where.className = "where";
    where.textContent = `${d.file_index === 0 ? "" : d.file + " "}${d.line}:${d.column} ${d.code ? `${d.severity || "error"}[${d.code}] ` : ""}`;
    item.appendChild(where);
    item.appendChild(document.createTextNode(d.message + (d.label ? ` — ${d.label}` : "")));
    for (const note of [d.help ? `help: ${d.help}` : null, ...(d.notes || [])]) {
      if (!note) continue;
      const extra = document.createElement("span");
      extra.className = "help";
      extra.textContent = note;
      item.appendChild(extra);
    }
    item.addEventListener("click", () => {
      if (d.file_index !== 0) return;
      const editor = $("rules-editor");
      const lines = editor.value.split("\n");
      let offset = 0;
      for (let i = 0; i < d.line - 1 && i < lines.length; i++) offset += lines[i].length + 1;
      editor.focus();
      editor.setSelectionRange(offset + d.column - 1, offset + d.column - 1);
    });
    list.appendChild(item);
  }
  markSpans(diagnostics);
}

async function checkRules(withDump) {
  const sequence = ++page.checkSeq;
  const source = $("rules-editor").value;
  try {
    const result = await api("POST", "/api/check", { variant: page.variantId, source, dump: !!withDump });
    if (sequence !== page.checkSeq) return result;
    showDiagnostics(result.diagnostics);
    $("play-edited").disabled = !result.ok;
    return result;
  } catch (error) {
    if (sequence === page.checkSeq) showDiagnostics([{ file_index: -1, file: "", line: 0, column: 0, message: error.message, notes: [] }]);
    return null;
  }
}

function installEditor() {
  const editor = $("rules-editor");
  editor.addEventListener("input", () => {
    markSpans([]);
    clearTimeout(page.checkTimer);
    page.checkTimer = setTimeout(() => checkRules(false), 250);
  });
  editor.addEventListener("scroll", syncScroll);
  $("play-edited").addEventListener("click", () => newGame({ source: editor.value }));
  $("dump").addEventListener("click", async () => {
    const result = await checkRules(true);
    $("tool-output").textContent = result && result.ok ? result.dump : "The rules have errors; see above.";
  });
  $("perft").addEventListener("click", async () => {
    const depth = Number($("perft-depth").value) || 0;
    $("tool-output").textContent = "counting…";
    try {
      const fen = page.state ? page.state.fen : undefined;
      const result = await api("POST", "/api/perft", { variant: page.variantId, source: editor.value, fen, depth });
      $("tool-output").textContent = `perft ${result.depth}: ${result.nodes} nodes (${result.seconds.toFixed(3)} s)\n` +
        result.divide.map((d) => `${d.move}: ${d.nodes}`).join("\n");
    } catch (error) {
      $("tool-output").textContent = error.message;
    }
  });
  $("save").addEventListener("click", async () => {
    if (!window.confirm(`Write these rules to ${page.variantId}.rules?`)) return;
    try {
      const result = await api("POST", `/api/variants/${encodeURIComponent(page.variantId)}/save`,
        { source: editor.value, version: page.version, confirm: true });
      page.version = result.version;
      $("tool-output").textContent = `saved ${page.variantId}.rules`;
    } catch (error) {
      $("tool-output").textContent = `not saved: ${error.message}`;
    }
  });
}

// ---- records and FEN -----------------------------------------------

function installGameControls() {
  $("variant").addEventListener("change", () => openVariant($("variant").value));
  $("new-game").addEventListener("click", () => newGame());
  $("flip").addEventListener("click", () => { page.flipped = !page.flipped; redraw(); });
  $("regions").addEventListener("change", redraw);
  $("opponent").addEventListener("change", () => {
    page.flipped = $("opponent").value === "white";
    redraw();
    maybeEngine();
  });
  $("engine-move").addEventListener("click", engineMove);
  for (const action of ["claim", "offer", "accept", "resign"]) {
    $(action).addEventListener("click", () => sendAction(action));
  }
  $("takeback").addEventListener("click", () => sendAction("takeback", { plies: engineColor() ? 2 : 1 }));
  $("chooser-cancel").addEventListener("click", () => { $("chooser").hidden = true; });
  $("set-fen").addEventListener("click", () => newGame({ fen: $("fen").value }));
  $("download").addEventListener("click", async () => {
    if (!page.gameId) return;
    const data = await api("GET", `/api/games/${page.gameId}/record`);
    const link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([data.record], { type: "text/plain" }));
    link.download = `${page.variantId}.pgn`;
    link.click();
    URL.revokeObjectURL(link.href);
  });
  $("upload").addEventListener("change", async () => {
    const file = $("upload").files[0];
    if (file) await newGame({ record: await file.text() });
    $("upload").value = "";
  });
}

window.addEventListener("DOMContentLoaded", () => {
  installBoardInput();
  installEditor();
  installGameControls();
  page.clockTimer = setInterval(showClocks, 250);
  loadVariantList().catch((error) => setStatus(`Cannot load the variants: ${error.message}`, "error"));
});
