/** The hover card of a node: placed next to the pointer (or the focused node), kept inside the panel. */
export class Tooltip {
  private readonly element: HTMLElement;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly container: HTMLElement) {
    this.element = document.createElement('div');
    this.element.className = 'tooltip';
    this.element.setAttribute('role', 'tooltip');
    this.element.hidden = true;
    container.append(this.element);
  }

  show(content: HTMLElement, at: { x: number; y: number }, delay = 250): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.element.replaceChildren(content);
      this.element.hidden = false;
      const width = this.element.offsetWidth;
      const height = this.element.offsetHeight;
      const x = Math.min(at.x + 14, this.container.clientWidth - width - 8);
      const y = at.y + 18 + height > this.container.clientHeight ? Math.max(8, at.y - height - 10) : at.y + 18;
      this.element.style.transform = `translate(${Math.max(8, Math.round(x))}px, ${Math.round(y)}px)`;
    }, delay);
  }

  hide(): void {
    clearTimeout(this.timer);
    this.element.hidden = true;
  }
}
