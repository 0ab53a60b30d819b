/**
 * A small XML well-formedness check for the SVG the library writes: one root element, every
 * tag closed in order, attributes quoted and not repeated, only the five predefined entities and
 * numeric references, nothing outside the root but whitespace and an XML declaration. Returns
 * null when well formed, else what is wrong and where.
 */
export function xmlProblem(text: string): string | null {
  const stack: string[] = [];
  let roots = 0;
  let i = 0;
  const tag = /<(\/?)([A-Za-z_][\w:.-]*)((?:\s+[A-Za-z_][\w:.-]*\s*=\s*(?:"[^"<]*"|'[^'<]*'))*)\s*(\/?)>/y;
  const attr = /([A-Za-z_][\w:.-]*)\s*=/g;
  while (i < text.length) {
    const lt = text.indexOf('<', i);
    const chunk = lt < 0 ? text.slice(i) : text.slice(i, lt);
    const entity = /&(?!(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);)/.exec(chunk);
    if (entity !== null) return `bad entity at ${i + entity.index}`;
    if (stack.length === 0 && chunk.trim() !== '') return `text outside the root at ${i}`;
    if (lt < 0) break;
    if (text.startsWith('<?xml', lt) && lt === 0) {
      const end = text.indexOf('?>', lt);
      if (end < 0) return 'unterminated XML declaration';
      i = end + 2;
      continue;
    }
    if (text.startsWith('<!--', lt)) {
      const end = text.indexOf('-->', lt);
      if (end < 0) return 'unterminated comment';
      i = end + 3;
      continue;
    }
    tag.lastIndex = lt;
    const m = tag.exec(text);
    if (m === null) return `malformed tag at ${lt}: ${text.slice(lt, lt + 60)}`;
    const [, close, name, attrs, selfClose] = m;
    if (close === '/') {
      if (attrs !== '' || selfClose === '/') return `malformed closing tag </${name}> at ${lt}`;
      const open = stack.pop();
      if (open !== name) return `</${name}> at ${lt} closes <${open ?? 'nothing'}>`;
    } else {
      const names = [...attrs!.matchAll(attr)].map((a) => a[1]!);
      if (new Set(names).size !== names.length) return `repeated attribute in <${name}> at ${lt}`;
      if (stack.length === 0) roots++;
      if (roots > 1) return `a second root element <${name}> at ${lt}`;
      if (selfClose !== '/') stack.push(name!);
    }
    i = lt + m[0].length;
  }
  if (stack.length > 0) return `unclosed <${stack[stack.length - 1]}>`;
  if (roots !== 1) return 'no root element';
  return null;
}
