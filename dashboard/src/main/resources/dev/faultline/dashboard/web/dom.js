// DOM helpers. Data from the graph (titles, evidence, explanations) only ever becomes text nodes: never innerHTML.

/** Creates an element; attrs are set as properties/attributes, children strings become text nodes. */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === 'class') node.className = value;
    else if (key === 'text') node.textContent = String(value);
    else if (key === 'dataset') Object.assign(node.dataset, value);
    else if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, String(value));
  }
  append(node, children);
  return node;
}

function append(node, children) {
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replaces the children of the element with this id. */
export function fill(id, ...children) {
  const node = document.getElementById(id);
  node.replaceChildren();
  append(node, children);
  return node;
}

/** Sets the text of the element with this id. */
export function text(id, value) {
  document.getElementById(id).textContent = value === null || value === undefined ? '' : String(value);
}

/** A link to GitHub, only for https://github.com/ addresses (no javascript: or other schemes from data). */
export function githubLink(url, label) {
  if (typeof url === 'string' && /^https:\/\/github\.com\//.test(url)) {
    return el('a', { href: url, rel: 'noopener noreferrer', target: '_blank' }, label);
  }
  return el('span', {}, label);
}

/** A link to an issue's drill-down in this page. */
export function issueLink(id, label = id) {
  return el('a', { href: '#issue?' + new URLSearchParams({ id }).toString(), class: 'issue-link' }, label);
}

export function percent(share) {
  return share === null || share === undefined ? '—' : (share * 100).toFixed(1) + '%';
}

export function day(iso) {
  return iso ? String(iso).slice(0, 10) : '—';
}

export function num(value) {
  return value === null || value === undefined ? '—' : Number(value).toLocaleString('en-US');
}
