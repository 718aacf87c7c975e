import * as vscode from 'vscode';

/**
 * True once any command registered through {@link registerCommand} has run in this extension host. VS Code does
 * not say why it activated an extension; when the user ran one of our commands from the palette, that command
 * runs right after activation, and this flag tells the walkthrough not to take the focus from it.
 */
let ran = false;

/** Registers one of our commands, noting when it runs (see {@link ourCommandRan}). */
export function registerCommand(id: string, handler: (...args: never[]) => unknown): vscode.Disposable {
  return vscode.commands.registerCommand(id, (...args: never[]) => {
    ran = true;
    return handler(...args);
  });
}

/** Whether one of our commands has run since activation. */
export function ourCommandRan(): boolean {
  return ran;
}
