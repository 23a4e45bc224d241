/**
 * The page's only style sheet, inline (the CSP allows inline styles and nothing fetched). Colours keep
 * WCAG AA contrast on screen and in print; print gives each scenario its own A4 page and never splits a
 * chart or a table row.
 */
export const styles = `
:root { color-scheme: light; --fg: #1a1a1a; --muted: #4a4a4a; --line: #c8c8c8; --link: #0b4f9c; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.45 system-ui, sans-serif; color: var(--fg); background: #fff; }
header, main, nav { max-width: 1100px; margin: 0 auto; padding: 0 1.5rem; }
header { border-bottom: 1px solid var(--line); padding-top: 1rem; padding-bottom: 1rem; }
h1 { font-size: 1.6rem; margin: 0 0 .5rem; }
h2 { font-size: 1.3rem; margin: 2rem 0 .6rem; border-bottom: 1px solid var(--line); padding-bottom: .2rem; }
h3 { font-size: 1.05rem; margin: 1.4rem 0 .4rem; }
a { color: var(--link); }
a:focus, a:focus-visible { outline: 3px solid #b35900; outline-offset: 1px; background: #fff3d6; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .15rem 1rem; margin: .5rem 0; }
dl.facts dt { font-weight: 600; }
dl.facts dd { margin: 0; }
code, pre { font-family: ui-monospace, monospace; font-size: .9em; }
pre { background: #f3f3f3; border: 1px solid var(--line); padding: .5rem .7rem; overflow-x: auto; white-space: pre-wrap; }
table { border-collapse: collapse; margin: .5rem 0 1rem; font-size: .9rem; }
caption { text-align: left; font-weight: 600; padding: .2rem 0; caption-side: top; }
th, td { border: 1px solid var(--line); padding: .2rem .5rem; text-align: left; vertical-align: top; }
thead th { background: #eef1f5; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
tr:target { background: #fff3d6; }
.status { font-weight: 700; padding: 0 .35rem; border-radius: 3px; }
.status-pass { color: #14532d; background: #dcfce7; }
.status-fail { color: #7f1d1d; background: #fee2e2; }
.status-error { color: #6b2100; background: #ffedd5; }
.status-not-applicable { color: #3f3f46; background: #ececec; }
.verdict { font-size: 1.1rem; }
figure.chart { margin: .8rem 0 1.2rem; }
figure.chart svg { max-width: 100%; height: auto; }
figcaption { color: var(--muted); font-size: .85rem; margin-top: .2rem; }
nav ol { columns: 2; margin: .3rem 0 1rem; }
section.scenario { border-top: 3px solid var(--line); margin-top: 2.5rem; }
.muted { color: var(--muted); }
@page { size: A4; margin: 14mm 12mm 16mm; }
@media print {
  body { font-size: 10.5pt; }
  header, main, nav { max-width: none; padding: 0; }
  section.scenario { break-before: page; border-top: none; margin-top: 0; }
  figure, pre { break-inside: avoid; }
  tr, caption { break-inside: avoid; }
  thead { display: table-header-group; }
  h2, h3, caption, thead { break-after: avoid; }
  a { color: #0b3d91; text-decoration: underline; }
  a:focus { background: none; outline: none; }
  nav ol { columns: 2; }
}
`;
