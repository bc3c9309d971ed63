/**
 * A defensive pass over rich text before it is shown as HTML: drops script-capable elements, event-handler
 * attributes and javascript: / data: (non-image) addresses. The server is the real gate; this keeps a bad record from
 * running code in the console.
 */
const DROP = new Set(['SCRIPT', 'STYLE', 'IFRAME', 'OBJECT', 'EMBED', 'LINK', 'META', 'BASE', 'FORM']);

export function safeHtml(html: string): string {
  if (!html) return '';
  const doc = new DOMParser().parseFromString(`<body>${html}</body>`, 'text/html');
  const walk = (el: Element) => {
    for (const child of [...el.children]) {
      if (DROP.has(child.tagName)) {
        child.remove();
        continue;
      }
      for (const attr of [...child.attributes]) {
        const name = attr.name.toLowerCase();
        const value = attr.value.trim().toLowerCase();
        if (name.startsWith('on')) child.removeAttribute(attr.name);
        else if (
          (name === 'href' || name === 'src' || name === 'xlink:href') &&
          (value.startsWith('javascript:') || (value.startsWith('data:') && !value.startsWith('data:image/')))
        )
          child.removeAttribute(attr.name);
      }
      walk(child);
    }
  };
  walk(doc.body);
  return doc.body.innerHTML;
}
