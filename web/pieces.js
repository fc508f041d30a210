// Piece glyphs as SVG markup in a 100 x 100 box: a built-in set for the
// standard kinds (by kind name), and for every other kind a disc with its
// letter and marks, its ring coloured per kind so kinds stay distinct.
"use strict";

const PIECE_PATHS = {
  p: '<circle cx="50" cy="30" r="12"/><path d="M40 42 Q50 48 60 42 L66 74 L34 74 Z"/><path d="M26 86 Q26 74 50 74 Q74 74 74 86 Z"/>',
  r: '<path d="M28 20 H38 V28 H45 V20 H55 V28 H62 V20 H72 V36 L66 42 V70 L72 76 V86 H28 V76 L34 70 V42 L28 36 Z"/><path class="detail" d="M34 42 H66 M34 70 H66" fill="none"/>',
  n: '<path d="M30 86 L32 70 Q34 58 46 50 L30 54 Q22 56 20 48 L22 42 L44 24 L46 14 L54 22 Q76 28 76 56 L74 86 Z"/><circle class="detail-dot" cx="44" cy="32" r="3"/>',
  b: '<circle cx="50" cy="16" r="6"/><path d="M50 22 Q72 40 64 62 L36 62 Q28 40 50 22 Z"/><path class="detail" d="M54 32 L46 46" fill="none"/><path d="M34 62 H66 L70 72 H30 Z"/><path d="M24 86 Q36 76 50 80 Q64 76 76 86 Z"/>',
  q: '<path d="M24 30 L34 62 L40 26 L50 60 L60 26 L66 62 L76 30 L70 74 H30 Z"/><circle cx="24" cy="27" r="5"/><circle cx="40" cy="22" r="5"/><circle cx="60" cy="22" r="5"/><circle cx="76" cy="27" r="5"/><circle cx="50" cy="18" r="5"/><path d="M28 74 H72 L74 86 H26 Z"/>',
  k: '<path d="M46 8 H54 V16 H62 V24 H54 V32 H46 V24 H38 V16 H46 Z"/><path d="M50 34 Q78 30 74 54 L66 72 H34 L26 54 Q22 30 50 34 Z"/><path class="detail" d="M50 36 V70" fill="none"/><path d="M30 72 H70 L72 86 H28 Z"/>',
};

// A hue per kind id: the golden angle spreads neighbours apart.
function kindHue(kind) {
  return Math.round((kind * 137.508) % 360);
}

function escapeXml(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

// The SVG markup of one piece. `kind` is the variant's piece kind
// ({id, name, letter, glyph}), `color` "white" or "black", `promoted` marks
// a piece that promoted (a small star).
function pieceSvg(kind, color, promoted) {
  const white = color === "white";
  let body;
  if (kind && kind.glyph && PIECE_PATHS[kind.glyph]) {
    const fill = white ? "#fafafa" : "#2b2b2b";
    const stroke = white ? "#1b1b1b" : "#000";
    const detail = white ? "#1b1b1b" : "#e6e6e6";
    const shape = PIECE_PATHS[kind.glyph]
      .replace(/class="detail"/g, `stroke="${detail}"`)
      .replace(/class="detail-dot"/g, `fill="${detail}" stroke="none"`);
    body = `<g fill="${fill}" stroke="${stroke}" stroke-width="3" stroke-linejoin="round">${shape}</g>`;
  } else {
    const hue = kind ? kindHue(kind.id) : 0;
    const letter = kind ? kind.letter : "?";
    const text = white ? letter.toUpperCase() : letter.toLowerCase();
    const size = text.length <= 1 ? 52 : text.length === 2 ? 42 : 30;
    const fill = white ? "#fafafa" : "#2b2b2b";
    const ink = white ? "#111" : "#f4f4f4";
    body = `<circle cx="50" cy="50" r="40" fill="${fill}" stroke="hsl(${hue},70%,42%)" stroke-width="7"/>` +
      `<text x="50" y="52" text-anchor="middle" dominant-baseline="central" font-family="Georgia, serif" font-weight="bold" font-size="${size}" fill="${ink}">${escapeXml(text)}</text>`;
  }
  if (promoted) {
    body += '<path d="M84 4 L88 14 L98 14 L90 20 L93 30 L84 24 L75 30 L78 20 L70 14 L80 14 Z" fill="#f2b705" stroke="#7a5a00" stroke-width="2"/>';
  }
  return body;
}
