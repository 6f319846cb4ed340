// The least an extension can do: one diagnostic as soon as it is active, a webview whose inline script draws
// five SVG nodes. Its exports say when the diagnostic was set and when each webview drew (the page's clock,
// the machine's one clock), for the vscode tier to time VS Code's own share of Terrace's waits.
const vscode = require('vscode');

exports.activate = async (ctx) => {
  const coll = vscode.languages.createDiagnosticCollection('floor');
  ctx.subscriptions.push(coll);
  const drawnWaiters = [];
  const times = { activatedAt: Date.now(), diagnosticsAt: undefined };
  const files = await vscode.workspace.findFiles('**/{*.tf,*.tofu,terragrunt.hcl}', '**/.terraform/**', 1);
  if (files[0]) {
    coll.set(files[0], [
      new vscode.Diagnostic(new vscode.Range(0, 0, 0, 1), 'floor: active', vscode.DiagnosticSeverity.Error),
    ]);
    times.diagnosticsAt = Date.now();
  }
  ctx.subscriptions.push(
    vscode.commands.registerCommand('floor.show', () => {
      const p = vscode.window.createWebviewPanel('floor', 'Floor', vscode.ViewColumn.Beside, { enableScripts: true });
      // The one thing Terrace's panel also does: it says when it drew, and how many nodes.
      p.webview.onDidReceiveMessage((message) => {
        for (const resolve of drawnWaiters.splice(0)) resolve(message);
      });
      p.webview.html = `<!DOCTYPE html><html><head><meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline';"></head>
<body><svg width="400" height="300"></svg><script>
const s = document.querySelector('svg');
for (let i = 0; i < 5; i++) { const g = document.createElementNS('http://www.w3.org/2000/svg', 'g'); g.setAttribute('class', 'node');
  const r = document.createElementNS('http://www.w3.org/2000/svg', 'rect'); r.setAttribute('x', 10 + i * 70); r.setAttribute('y', 10); r.setAttribute('width', 60); r.setAttribute('height', 30); g.appendChild(r); s.appendChild(g); }
acquireVsCodeApi().postMessage({ drawnAt: Date.now(), pageAt: Math.round(performance.timeOrigin), nodes: document.querySelectorAll('svg g.node').length });
</script></body></html>`;
    }),
  );
  return {
    times,
    /** The next drawing of a webview this extension opens: `{ drawnAt, pageAt, nodes }`. */
    nextDrawn: () => new Promise((resolve) => drawnWaiters.push(resolve)),
  };
};
exports.deactivate = () => {};
