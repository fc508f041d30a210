// The board drawn as SVG: squares (`data-square`, the variant's square
// names), holes, coordinates, the pieces (`data-piece`, the FEN letter),
// highlights and region overlays. Knows nothing of the rules: it draws what
// the server said.
"use strict";

const SVG_NS = "http://www.w3.org/2000/svg";
const CELL = 100;

function svgElement(name, attributes) {
  const element = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attributes || {})) element.setAttribute(key, value);
  return element;
}

// Draws `variant` ({files, ranks, squares, pieces}) with `pieces` (the
// state's board: [{square, letter, kind, color, promoted}]) into `host`.
// `view` holds: flipped, highlights {square: class}, overlay (square names).
function drawBoard(host, variant, pieces, view) {
  const margin = 34;
  const width = variant.files * CELL + margin;
  const height = variant.ranks * CELL + margin;
  const svg = svgElement("svg", { viewBox: `0 0 ${width} ${height}`, class: "board-svg", role: "img" });
  const place = (file, rank) => {
    const column = view.flipped ? variant.files - 1 - file : file;
    const row = view.flipped ? rank : variant.ranks - 1 - rank;
    return [margin + column * CELL, row * CELL];
  };
  const bySquare = {};
  for (const square of variant.squares) bySquare[square.name] = square;
  const overlay = new Set(view.overlay || []);
  const squares = svgElement("g", { class: "squares" });
  for (const square of variant.squares) {
    const [x, y] = place(square.file, square.rank);
    const classes = ["square", square.hole ? "hole" : (square.file + square.rank) % 2 === 0 ? "dark" : "light"];
    const extra = view.highlights[square.name];
    if (extra) classes.push(...extra.split(" "));
    if (overlay.has(square.name)) classes.push("overlay");
    const rect = svgElement("rect", { x, y, width: CELL, height: CELL, class: classes.join(" "), "data-square": square.name });
    squares.appendChild(rect);
    if (view.targets && view.targets.has(square.name) && !square.hole) {
      const occupied = pieces.some((p) => p.square === square.name);
      squares.appendChild(svgElement("circle", {
        cx: x + CELL / 2, cy: y + CELL / 2, r: occupied ? CELL * 0.46 : CELL * 0.15,
        class: occupied ? "target capture" : "target",
      }));
    }
  }
  svg.appendChild(squares);
  const labels = svgElement("g", { class: "coordinates" });
  for (let file = 0; file < variant.files; file++) {
    const [x] = place(file, 0);
    const text = svgElement("text", { x: x + CELL / 2, y: variant.ranks * CELL + 24, "text-anchor": "middle" });
    text.textContent = String.fromCharCode(97 + file);
    labels.appendChild(text);
  }
  for (let rank = 0; rank < variant.ranks; rank++) {
    const [, y] = place(0, rank);
    const text = svgElement("text", { x: margin / 2, y: y + CELL / 2 + 8, "text-anchor": "middle" });
    text.textContent = String(rank + 1);
    labels.appendChild(text);
  }
  svg.appendChild(labels);
  const layer = svgElement("g", { class: "pieces" });
  for (const piece of pieces) {
    const square = bySquare[piece.square];
    if (!square) continue;
    const [x, y] = place(square.file, square.rank);
    const kind = variant.pieces[piece.kind];
    const group = svgElement("g", {
      class: "piece" + (view.dragging === piece.square ? " lifted" : ""),
      "data-piece": piece.letter,
      "data-on": piece.square,
      transform: `translate(${x} ${y})`,
    });
    const title = svgElement("title");
    title.textContent = `${piece.color} ${kind ? kind.name : "?"}${piece.promoted || (kind && kind.promoted_kind) ? " (promoted)" : ""} on ${piece.square}`;
    group.appendChild(title);
    const promoted = piece.promoted || Boolean(kind && kind.promoted_kind);
    group.insertAdjacentHTML("beforeend", pieceSvg(kind, piece.color, promoted));
    layer.appendChild(group);
  }
  svg.appendChild(layer);
  host.replaceChildren(svg);
  return svg;
}

// The square name under a client point, or null.
function squareAt(clientX, clientY) {
  for (const element of document.elementsFromPoint(clientX, clientY)) {
    if (element.dataset && element.dataset.square) return element.dataset.square;
  }
  return null;
}
