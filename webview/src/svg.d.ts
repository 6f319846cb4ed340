/** An SVG file imported as its markup (the webview bundle loads `.svg` as text). */
declare module '*.svg' {
  const markup: string;
  export default markup;
}
