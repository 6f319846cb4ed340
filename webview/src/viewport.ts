/**
 * Pan and zoom of the drawing: mouse wheel zooms at the pointer, dragging the background pans,
 * `fit` shows a box whole. The transform maps drawing coordinates to the container's pixels.
 */
export interface Transform {
  x: number;
  y: number;
  k: number;
}

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export const MIN_ZOOM = 0.05;
export const MAX_ZOOM = 3;

export class Viewport {
  private current: Transform = { x: 0, y: 0, k: 1 };
  private drag: { pointer: number; startX: number; startY: number; from: Transform; moved: boolean } | undefined;
  /** True right after a drag, so the click that ends it does not count as a click on a node. */
  dragged = false;
  /** The container's size, kept by a ResizeObserver: reading it from the DOM after a redraw would force a layout. */
  private size: { width: number; height: number } | undefined;
  /** The smallest zoom a fit chooses: below it the drawing's text is too small to read. */
  readableZoom = MIN_ZOOM;

  constructor(
    private readonly container: HTMLElement,
    private readonly target: SVGGElement,
    private readonly onChange: (transform: Transform) => void,
    private readonly onResize: () => void = () => undefined,
  ) {
    new ResizeObserver(([entry]) => {
      if (!entry) return;
      const resized = this.size !== undefined;
      this.size = { width: entry.contentRect.width, height: entry.contentRect.height };
      if (resized) this.onResize();
    }).observe(container);
    container.addEventListener('wheel', (event) => this.wheel(event), { passive: false });
    container.addEventListener('pointerdown', (event) => this.pointerDown(event));
    container.addEventListener('pointermove', (event) => this.pointerMove(event));
    container.addEventListener('pointerup', (event) => this.pointerUp(event));
    container.addEventListener('pointercancel', (event) => this.pointerUp(event));
  }

  get transform(): Transform {
    return { ...this.current };
  }

  set(transform: Transform): void {
    const k = clamp(transform.k, MIN_ZOOM, MAX_ZOOM);
    this.current = { x: transform.x, y: transform.y, k };
    this.target.setAttribute(
      'transform',
      `translate(${round(this.current.x)} ${round(this.current.y)}) scale(${round(k, 4)})`,
    );
    this.onChange(this.transform);
  }

  /** Zooms by `factor` keeping the container point (`cx`, `cy`) in place (default: the centre). */
  zoomBy(factor: number, cx = this.width / 2, cy = this.height / 2): void {
    const { x, y, k } = this.current;
    const next = clamp(k * factor, MIN_ZOOM, MAX_ZOOM);
    this.set({ x: cx - ((cx - x) * next) / k, y: cy - ((cy - y) * next) / k, k: next });
  }

  private get width(): number {
    return this.size?.width ?? this.container.clientWidth;
  }

  private get height(): number {
    return this.size?.height ?? this.container.clientHeight;
  }

  panBy(dx: number, dy: number): void {
    this.set({ ...this.current, x: this.current.x + dx, y: this.current.y + dy });
  }

  /**
   * Shows `box` whole and centred, never zooming in past `maxZoom`. Where showing it whole would zoom
   * out below `minZoom` (by default `readableZoom`), it fills the height instead, not below `minZoom`,
   * and shows the box's left end (the first levels) and top: the rest is a scroll away.
   */
  fit(box: Box, padding = 32, maxZoom = 1, minZoom = this.readableZoom): void {
    const width = Math.max(1, this.width - 2 * padding);
    const height = Math.max(1, this.height - 2 * padding);
    const across = width / Math.max(box.width, 1);
    const down = height / Math.max(box.height, 1);
    const whole = Math.min(across, down, maxZoom);
    const k = clamp(whole >= minZoom ? whole : Math.max(minZoom, Math.min(down, maxZoom)), MIN_ZOOM, MAX_ZOOM);
    const centred = (size: number, start: number, extent: number) =>
      extent * k <= size - 2 * padding ? size / 2 - (start + extent / 2) * k : padding - start * k;
    this.set({ x: centred(this.width, box.x, box.width), y: centred(this.height, box.y, box.height), k });
  }

  /** Pans (without zooming) so that `box` is in view, when it is not already. */
  reveal(box: Box, padding = 48): void {
    const { x, y, k } = this.current;
    const left = box.x * k + x;
    const top = box.y * k + y;
    const right = left + box.width * k;
    const bottom = top + box.height * k;
    const width = this.width;
    const height = this.height;
    if (box.width * k > width - 2 * padding || box.height * k > height - 2 * padding) {
      // Zooms out to show it, never in; not below a readable size, unless the user is already below it.
      this.fit(box, padding, k, Math.min(k, this.readableZoom));
      return;
    }
    let dx = 0;
    let dy = 0;
    if (left < padding) dx = padding - left;
    else if (right > width - padding) dx = width - padding - right;
    if (top < padding) dy = padding - top;
    else if (bottom > height - padding) dy = height - padding - bottom;
    if (dx || dy) this.panBy(dx, dy);
  }

  private wheel(event: WheelEvent): void {
    event.preventDefault();
    const rect = this.container.getBoundingClientRect();
    if (event.shiftKey && !event.ctrlKey) {
      this.panBy(-event.deltaY, 0);
      return;
    }
    const delta = event.deltaMode === 1 ? event.deltaY * 16 : event.deltaY;
    this.zoomBy(Math.exp(-delta * (event.ctrlKey ? 0.01 : 0.002)), event.clientX - rect.left, event.clientY - rect.top);
  }

  private pointerDown(event: PointerEvent): void {
    if (event.button !== 0 && event.button !== 1) return;
    this.dragged = false;
    this.drag = {
      pointer: event.pointerId,
      startX: event.clientX,
      startY: event.clientY,
      from: this.transform,
      moved: false,
    };
  }

  private pointerMove(event: PointerEvent): void {
    const drag = this.drag;
    if (!drag || drag.pointer !== event.pointerId) return;
    const dx = event.clientX - drag.startX;
    const dy = event.clientY - drag.startY;
    if (!drag.moved && Math.hypot(dx, dy) < 4) return;
    if (!drag.moved) {
      drag.moved = true;
      this.container.setPointerCapture(event.pointerId);
      this.container.classList.add('panning');
    }
    this.set({ ...drag.from, x: drag.from.x + dx, y: drag.from.y + dy });
  }

  private pointerUp(event: PointerEvent): void {
    const drag = this.drag;
    if (!drag || drag.pointer !== event.pointerId) return;
    this.drag = undefined;
    this.dragged = drag.moved;
    this.container.classList.remove('panning');
    if (this.container.hasPointerCapture(event.pointerId)) this.container.releasePointerCapture(event.pointerId);
  }
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

function round(value: number, digits = 2): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
