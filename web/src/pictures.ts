// pictures.ts — the small picture of each game on the home page (SVG
// markup, viewBox 0 0 60 60): the page's own drawing, the one thing about a
// game the server does not say (/api/meta says the rest: web/src/meta.ts).

export const PICTURES: Record<string, string> = {
  urbino: `<rect x="2" y="2" width="56" height="56" rx="4" fill="#e9dcb9"/>
<g stroke="#8a7446" stroke-width=".6" fill="none">${grid(6, 2, 2, 56 / 6)}</g>
<rect x="12" y="12" width="8" height="8" fill="#fbf7ee" stroke="#6d5a35"/>
<rect x="21.5" y="12" width="8" height="8" fill="#fbf7ee" stroke="#6d5a35"/><rect x="23.5" y="14" width="4" height="4" fill="#6d5a35"/>
<rect x="31" y="31" width="8" height="8" fill="#33303a" stroke="#111"/><circle cx="35" cy="35" r="2.4" fill="#d9d2e9"/>
<rect x="40.5" y="31" width="8" height="8" fill="#33303a" stroke="#111"/>
<circle cx="16" cy="44" r="4.5" fill="#c0392b" stroke="#fff"/><circle cx="44" cy="16" r="4.5" fill="#c0392b" stroke="#fff"/>`,
  epaminondas: `<rect x="2" y="2" width="56" height="56" rx="4" fill="#d8c9a3"/>
<g stroke="#9b8860" stroke-width=".5" fill="none">${grid(7, 2, 2, 8)}</g>
${[0, 1, 2, 3, 4, 5, 6].map((i) => `<circle cx="${6 + i * 8}" cy="54" r="3.2" fill="#fbf8f0" stroke="#555" stroke-width=".6"/>`).join("")}
${[1, 2, 3].map((i) => `<circle cx="${6 + i * 8}" cy="${46 - (i - 1) * 8}" r="3.2" fill="#fbf8f0" stroke="#555" stroke-width=".6"/>`).join("")}
${[0, 1, 2, 3, 4, 5, 6].map((i) => `<circle cx="${6 + i * 8}" cy="6" r="3.2" fill="#2d2b33" stroke="#000" stroke-width=".6"/>`).join("")}
<circle cx="38" cy="14" r="3.2" fill="#2d2b33" stroke="#000" stroke-width=".6"/>
<path d="M30 30 L36 24" stroke="#c0392b" stroke-width="1.6" marker-end="none"/>`,
  cathedral: `<rect x="2" y="2" width="56" height="56" rx="4" fill="#d9bb85"/>
<g stroke="#a8894f" stroke-width=".5" fill="none">${grid(6, 2, 2, 56 / 6)}</g>
<path d="M20.7 11.3h9.3v9.3h9.3v9.3h-9.3v18.7h-9.3v-18.7h-9.3v-9.3h9.3z" fill="#5d7fa8" stroke="#2d4563"/>
<path d="M39.3 39.3h18.7v9.3h-9.3v9.3h-9.3z" fill="#3d3a45" stroke="#a59fb4"/>
<path d="M2 2h18.7v9.3h-9.3v9.3h-9.3z" fill="#f6eddc" stroke="#7a6444"/>`,
  toscana: `<rect x="2" y="2" width="56" height="56" rx="4" fill="#cfd8c4"/>
<g stroke="#6d5a35" stroke-width=".8"><rect x="6" y="10" width="32" height="16" fill="#e8c27a"/><rect x="14" y="10" width="8" height="8" fill="#7b4a2a"/>
<rect x="38" y="18" width="16" height="32" fill="#7b4a2a"/><rect x="46" y="34" width="8" height="8" fill="#e8c27a"/>
<rect x="14" y="26" width="24" height="8" fill="#7b4a2a"/><rect x="14" y="34" width="24" height="8" fill="#7b4a2a"/><rect x="22" y="34" width="8" height="8" fill="#e8c27a"/></g>`,
};

function grid(n: number, x0: number, y0: number, step: number): string {
  let d = "";
  for (let i = 0; i <= n; i++) {
    d += `M${x0 + i * step} ${y0}V${y0 + n * step}M${x0} ${y0 + i * step}H${x0 + n * step}`;
  }
  return `<path d="${d}"/>`;
}
