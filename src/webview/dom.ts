/** Tiny DOM builders: every element of the chat UI is made here or by DOMPurify, never from strings. */

type Child = Node | string | false | null | undefined;
type Attrs = Record<string, string | boolean | undefined>;

/** Creates an element with attributes (false/undefined skipped, true as empty) and children (strings become text). */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    el.setAttribute(name, value === true ? '' : value);
  }
  for (const child of children) {
    if (child === false || child === null || child === undefined) continue;
    el.append(child);
  }
  return el;
}

/** A codicon glyph; hidden from assistive technology because its button carries the name. */
export function icon(name: string, extraClass = ''): HTMLElement {
  return h('i', {
    class: `codicon codicon-${name}${extraClass ? ' ' + extraClass : ''}`,
    'aria-hidden': 'true',
  });
}

/** An icon-only button whose accessible name and tooltip are `label`. */
export function iconButton(
  iconName: string,
  label: string,
  onClick?: (event: MouseEvent) => void,
): HTMLButtonElement {
  const button = h(
    'button',
    { type: 'button', class: 'icon-button', 'aria-label': label, title: label },
    icon(iconName),
  );
  if (onClick) button.addEventListener('click', onClick);
  return button;
}

/**
 * A toolbar button: an icon whose label shows beside it where its toolbar has room (CSS decides), and is its
 * accessible name and tooltip always.
 */
export function toolButton(
  iconName: string,
  label: string,
  onClick: (event: MouseEvent) => void,
): HTMLButtonElement {
  const button = h(
    'button',
    { type: 'button', class: 'icon-button tool-button', 'aria-label': label, title: label },
    icon(iconName),
    h('span', { class: 'tool-label', 'aria-hidden': 'true' }, label),
  );
  button.addEventListener('click', onClick);
  return button;
}

/** A button with an icon and a visible text label. */
export function textButton(
  label: string,
  onClick: (event: MouseEvent) => void,
  options: { icon?: string; secondary?: boolean } = {},
): HTMLButtonElement {
  const button = h(
    'button',
    { type: 'button', class: options.secondary ? 'text-button secondary' : 'text-button' },
    options.icon ? icon(options.icon) : null,
    h('span', {}, label),
  );
  button.addEventListener('click', onClick);
  return button;
}

let idCounter = 0;
/** A document-unique id for aria references. */
export function uniqueId(prefix: string): string {
  idCounter += 1;
  return `${prefix}-${idCounter}`;
}
