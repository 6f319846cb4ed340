import * as vscode from 'vscode';

/** An error whose places are in the Problems view (a cycle, a syntax error): the message, and a button there. */
export function showErrorWithProblems(message: string): void {
  void vscode.window
    .showErrorMessage(message, 'Show Problems')
    .then((action) => action && vscode.commands.executeCommand('workbench.actions.view.problems'));
}
