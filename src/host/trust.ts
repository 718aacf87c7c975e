import * as vscode from 'vscode';

/** The command that opens VS Code's Workspace Trust editor. */
const MANAGE_TRUST_COMMAND = 'workbench.trust.manage';

/**
 * True when the workspace is trusted. In Restricted Mode it says, in a modal message, that `action` changes
 * files and needs trust, offers the Workspace Trust editor, and returns false: nothing is written until the
 * user trusts the folder and runs the command again. (`workspace.requestWorkspaceTrust` is still a proposed
 * API, so the standard editor is offered instead.)
 */
export async function requireTrust(action: string): Promise<boolean> {
  if (vscode.workspace.isTrusted) return true;
  const manage = vscode.l10n.t('Manage Workspace Trust');
  const choice = await vscode.window.showWarningMessage(
    vscode.l10n.t('{0} changes files in this workspace, so it needs a trusted workspace.', action),
    {
      modal: true,
      detail: vscode.l10n.t(
        'This window is in Restricted Mode. Chat and Explain Selection work here; trust the folder to generate code, apply edits or save images, then run the command again.',
      ),
    },
    manage,
  );
  if (choice === manage) await vscode.commands.executeCommand(MANAGE_TRUST_COMMAND);
  return false;
}
