import type { WebviewToPanel } from '../../server/src/protocol';
import { headingAnchors } from './columnBands';
import type { Drawn, GraphCanvas } from './graphCanvas';
import type { StatusLine } from './statusLine';

/**
 * The current view as a standalone SVG or PNG file: the whole drawing (not only what is scrolled into
 * view), with the theme's colours written into every element, since the file is seen outside VS Code.
 */
const SVG = 'http://www.w3.org/2000/svg';

/** The styles that give the drawing its look; copied from the computed style of each element. */
const STYLE_PROPERTIES = [
  'fill',
  'fill-opacity',
  'stroke',
  'stroke-width',
  'stroke-dasharray',
  'stroke-opacity',
  'opacity',
  'font-family',
  'font-size',
  'font-weight',
  'display',
];

export interface ExportSource {
  /** The drawing's root group (its transform is dropped). */
  root: SVGGElement;
  defs: SVGDefsElement;
  bounds: { x: number; y: number; width: number; height: number };
  /** Column headings: where each one's text starts in the drawing, and the text. */
  headings: { x: number; y: number; text: string }[];
  /** The panel's background colour. */
  background: string;
  foreground: string;
  fontFamily: string;
}

const HEADING_SPACE = 28;

export function exportSvg(source: ExportSource): string {
  const { bounds } = source;
  const width = Math.ceil(bounds.width);
  const height = Math.ceil(bounds.height + HEADING_SPACE);
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('xmlns', SVG);
  svg.setAttribute('width', String(width));
  svg.setAttribute('height', String(height));
  svg.setAttribute('viewBox', `${bounds.x} ${bounds.y - HEADING_SPACE} ${width} ${height}`);
  svg.setAttribute('font-family', source.fontFamily);

  const background = document.createElementNS(SVG, 'rect');
  for (const [key, value] of Object.entries({
    x: bounds.x,
    y: bounds.y - HEADING_SPACE,
    width,
    height,
    fill: source.background,
  })) {
    background.setAttribute(key, String(value));
  }
  svg.append(background);
  svg.append(inlined(source.defs));
  for (const heading of source.headings) {
    const text = document.createElementNS(SVG, 'text');
    text.setAttribute('x', String(heading.x));
    text.setAttribute('y', String(heading.y));
    text.setAttribute('fill', source.foreground);
    text.setAttribute('font-size', '12');
    text.setAttribute('font-weight', '600');
    text.textContent = heading.text;
    svg.append(text);
  }
  const drawing = inlined(source.root);
  drawing.removeAttribute('transform');
  svg.append(drawing);
  return `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(svg)}\n`;
}

/** What `canvas` shows, if anything, exported and posted to the host, or why it failed; the status line shows it running. */
export async function exportShown(
  format: 'svg' | 'png',
  canvas: GraphCanvas,
  status: StatusLine,
  post: (message: WebviewToPanel) => void,
): Promise<void> {
  const shown = canvas.shown;
  if (!shown) return;
  status.busy(`Exporting ${format.toUpperCase()}…`);
  try {
    const data = await exportDrawing(format, canvas.root, canvas.defs, shown);
    post({ type: 'export', format, data });
  } catch (error) {
    post({ type: 'problem', message: `export failed: ${String(error)}` });
  } finally {
    status.idle();
    status.say('');
  }
}

/** The drawing on screen as the file the user asked for: SVG text, or base64 PNG. */
export async function exportDrawing(
  format: 'svg' | 'png',
  root: SVGGElement,
  defs: SVGDefsElement,
  shown: Drawn,
): Promise<string> {
  const { view, layout } = shown;
  const style = getComputedStyle(document.body);
  const svg = exportSvg({
    root,
    defs,
    bounds: shown.drawing.bounds,
    headings: headingAnchors(layout, view.headings).map(({ x, y }, index) => ({
      x,
      // Above the drawing going right, above each row's band going down.
      y: layout.direction === 'down' ? y - 6 : shown.drawing.bounds.y - 10,
      text: view.headings[index]!.title,
    })),
    background: style.backgroundColor,
    foreground: style.color,
    fontFamily: style.fontFamily,
  });
  return format === 'svg' ? svg : await exportPng(svg);
}

/** The SVG drawn on a canvas at `scale`, as base64 PNG (without the data URL prefix). */
export async function exportPng(svgText: string, scale = 2): Promise<string> {
  const image = new Image();
  const url = `data:image/svg+xml;base64,${base64(svgText)}`;
  await new Promise<void>((resolve, reject) => {
    image.onload = () => resolve();
    image.onerror = () => reject(new Error('the SVG could not be drawn as an image'));
    image.src = url;
  });
  // Browsers refuse canvases much larger than 16k pixels a side.
  const fit = Math.min(scale, 16000 / Math.max(image.width, 1), 16000 / Math.max(image.height, 1));
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.round(image.width * fit));
  canvas.height = Math.max(1, Math.round(image.height * fit));
  const context = canvas.getContext('2d');
  if (!context) throw new Error('no 2D canvas');
  context.drawImage(image, 0, 0, canvas.width, canvas.height);
  return canvas.toDataURL('image/png').replace(/^data:image\/png;base64,/, '');
}

/** A deep copy of `element` with each element's computed look written as attributes. */
function inlined<T extends Element>(element: T): T {
  const copy = element.cloneNode(true) as T;
  const originals = [element, ...element.querySelectorAll('*')];
  const copies = [copy, ...copy.querySelectorAll('*')];
  originals.forEach((original, index) => {
    const target = copies[index]!;
    const style = getComputedStyle(original);
    for (const property of STYLE_PROPERTIES) {
      const value = style.getPropertyValue(property);
      if (value) target.setAttribute(property, value);
    }
    for (const attribute of ['tabindex', 'role', 'aria-label']) {
      target.removeAttribute(attribute);
    }
  });
  return copy;
}

function base64(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
