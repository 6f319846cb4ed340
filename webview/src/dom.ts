import { type CodiconName, codiconSvg } from './codicons';

/** A small element builder for the panel's HTML parts. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string | boolean | undefined> = {},
  ...children: (Node | string | null | undefined | false)[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    element.setAttribute(key, value === true ? '' : value);
  }
  for (const child of children) if (child !== null && child !== undefined && child !== false) element.append(child);
  return element;
}

/** A toolbar button showing a codicon, with its name for screen readers and as a tooltip. */
export function iconButton(
  icon: CodiconName,
  title: string,
  onClick: () => void,
  extra: Record<string, string> = {},
): HTMLButtonElement {
  const button = h(
    'button',
    { type: 'button', class: 'icon-button', title, 'aria-label': title, ...extra },
    codicon(icon),
  );
  button.addEventListener('click', onClick);
  return button;
}

/** A button that stays pressed (`aria-pressed`). */
export function toggleButton(
  icon: CodiconName,
  title: string,
  onToggle: (pressed: boolean) => void,
): HTMLButtonElement {
  const button = iconButton(icon, title, () => {
    const pressed = button.getAttribute('aria-pressed') !== 'true';
    button.setAttribute('aria-pressed', String(pressed));
    onToggle(pressed);
  });
  button.classList.add('toggle');
  button.setAttribute('aria-pressed', 'false');
  return button;
}

/** A codicon, drawn in the text's colour. */
export function codicon(name: CodiconName): HTMLElement {
  const icon = h('span', { class: `codicon codicon-${name}`, 'aria-hidden': 'true' });
  // The package's own SVG, bundled: markup of ours, not data.
  icon.innerHTML = codiconSvg(name);
  return icon;
}
