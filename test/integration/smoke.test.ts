import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';

describe('smoke: the extension in a real VS Code', () => {
  it('runs inside a real editor', () => {
    assert.match(vscode.version, /^\d+\.\d+\.\d+/);
  });

  it('is installed and activates', async () => {
    const extension = vscode.extensions.getExtension('modelgateway.model-gateway');
    assert.ok(extension, 'modelgateway.model-gateway is loaded');
    await extension.activate();
    assert.equal(extension.isActive, true);
  });
});
