import type { GraphCanvas } from './graphCanvas';
import type { Viewport } from './viewport';

/** Room a fit keeps around the drawing (which has margins of its own), and above it for the column headings. */
const FIT_PADDING = 16;
const HEADINGS_HEIGHT = 24;

/** How long the panel's size must stay the same before the drawing is arranged again for it. */
const REARRANGE_AFTER_MS = 200;

/**
 * The drawing fitted to the panel: the area a fitted drawing fills, the fit itself, and a view kept
 * fitted while the user has not moved it since, when the drawing area or the panel is resized.
 */
export class DrawingFit {
  /** Once a resize has stopped: the arrangement chosen again for the panel's new shape. */
  private rearrangeTimer: ReturnType<typeof setTimeout> | undefined;
  /** True while the view is as the last fit left it. */
  private autoFit = false;
  private fitting = false;

  /** `rearrange`: lays the view out again for the panel's shape, and fits it. */
  constructor(
    private readonly canvas: GraphCanvas,
    private readonly viewport: Viewport,
    rearrange: () => void,
  ) {
    // When the panel itself is resized (not a bar of its own that shows or hides), once the resizing stops
    // a fitted view is arranged again for the new shape: levels as columns or rows, tall ones wrapped
    // (`columnWrap.ts`); an arrangement that stays the same is the layout already made.
    window.addEventListener('resize', () => {
      clearTimeout(this.rearrangeTimer);
      this.rearrangeTimer = setTimeout(() => {
        if (this.autoFit) rearrange();
      }, REARRANGE_AFTER_MS);
    });
  }

  /** The part of the panel a fitted drawing fills: less the fit's padding and the column headings. */
  drawingArea(): { width: number; height: number } {
    const canvas = this.canvas.element;
    return {
      width: Math.max(0, canvas.clientWidth - 2 * FIT_PADDING),
      height: Math.max(0, canvas.clientHeight - 2 * FIT_PADDING - HEADINGS_HEIGHT),
    };
  }

  fit(): void {
    const box = this.canvas.shown?.drawing.bounds;
    if (!box) return;
    this.fitting = true;
    this.viewport.fit({ ...box, y: box.y - HEADINGS_HEIGHT, height: box.height + HEADINGS_HEIGHT }, FIT_PADDING);
    this.fitting = false;
    this.autoFit = true;
  }

  /** The view moved: unless by a fit, it is no longer as the last fit left it. */
  transformed(): void {
    if (!this.fitting) this.autoFit = false;
  }

  /** A view the user has not moved since it was fitted stays fitted when the drawing area is resized. */
  resized(): void {
    if (this.autoFit) this.fit();
  }
}
