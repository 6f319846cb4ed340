/** What measures a text's width in a font (`TextFitter` in the page; an estimate where there is no page). */
export interface TextMeasure {
  measure(text: string, font: string): number;
}

/** Text that fits a width, cut with an ellipsis. */
export class TextFitter implements TextMeasure {
  private readonly context = document.createElement('canvas').getContext('2d');
  private readonly cache = new Map<string, string>();
  private readonly widths = new Map<string, number>();
  private font = '';
  private fontFamily = 'sans-serif';

  /**
   * The family the drawing's text is set in, read before each drawing: VS Code may style the page
   * after its script has started, and a measure in another font cuts text short or lets it overflow.
   */
  useFamily(family: string): void {
    if (family === this.fontFamily) return;
    this.fontFamily = family;
    this.font = '';
    this.cache.clear();
    this.widths.clear();
  }

  /** The width of `text` drawn in `font`; 0 where the page has no canvas to measure with. */
  measure(text: string, font: string): number {
    const key = `${font}\u0000${text}`;
    const cached = this.widths.get(key);
    if (cached !== undefined) return cached;
    const context = this.context;
    if (!context) return 0;
    this.setFont(context, font);
    const width = context.measureText(text).width;
    this.widths.set(key, width);
    return width;
  }

  private setFont(context: CanvasRenderingContext2D, font: string): void {
    // Setting a canvas font parses it: only when it changes.
    if (this.font === font) return;
    context.font = `${font} ${this.fontFamily}`;
    this.font = font;
  }

  /**
   * Text that fits a width: `keep` whole, then as much of the rest as fits, its start cut with an
   * ellipsis (a path's last folders say the most); `keep` alone, cut at its end, when even it does not fit.
   */
  fitKeepingEnd(keep: string, rest: string, font: string, width: number): string {
    const whole = keep + rest;
    if (this.measure(whole, font) <= width) return whole;
    if (this.measure(`${keep}…`, font) > width) return this.fit(keep, font, width);
    let low = 0;
    let high = rest.length;
    // The longest end of `rest` that fits after `keep` and an ellipsis.
    while (low < high) {
      const mid = Math.ceil((low + high) / 2);
      if (this.measure(`${keep}…${rest.slice(rest.length - mid)}`, font) <= width) low = mid;
      else high = mid - 1;
    }
    return `${keep}…${rest.slice(rest.length - low)}`;
  }

  fit(text: string, font: string, width: number): string {
    const key = `${font}\u0000${width}\u0000${text}`;
    const cached = this.cache.get(key);
    if (cached !== undefined) return cached;
    let result = text;
    const context = this.context;
    if (context) {
      this.setFont(context, font);
      if (context.measureText(text).width > width) {
        let low = 0;
        let high = text.length;
        while (low < high) {
          const mid = Math.ceil((low + high) / 2);
          if (context.measureText(`${text.slice(0, mid)}…`).width <= width) low = mid;
          else high = mid - 1;
        }
        result = `${text.slice(0, low)}…`;
      }
    }
    this.cache.set(key, result);
    return result;
  }
}
