/** Text and attribute values go into the page escaped: scenario names and messages come from lab YAML and the wire. */
const entities: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function esc(value: string | number): string {
  return String(value).replace(/[&<>"']/g, (c) => entities[c] ?? c);
}
