import type * as vscode from 'vscode';
import { normaliseBaseUrl } from '../../gateway/baseUrl';

const STATE_KEY = 'modelGateway.toolsRejected';

/**
 * Remembers, per model and base URL, servers that answered a request with `tools` with a 400
 * (`modelGateway.lm.toolCalling: auto`), so later requests to them carry the tools by the text protocol at once.
 */
export class ToolSupportMemory {
  /** `key`: where the list is kept; the agent keeps its text-protocol switches under its own. */
  constructor(
    private readonly state: vscode.Memento,
    private readonly stateKey = STATE_KEY,
  ) {}

  /** True when this server rejected tools for this model before. */
  rejected(baseUrl: string, model: string): boolean {
    return this.state.get<string[]>(this.stateKey, []).includes(key(baseUrl, model));
  }

  /** Records a rejection (kept across reloads). */
  async remember(baseUrl: string, model: string): Promise<void> {
    const known = this.state.get<string[]>(this.stateKey, []);
    const entry = key(baseUrl, model);
    if (!known.includes(entry)) await this.state.update(this.stateKey, [...known, entry]);
  }
}

function key(baseUrl: string, model: string): string {
  const base = normaliseBaseUrl(baseUrl);
  return `${'root' in base ? base.root : baseUrl.trim()} ${model}`;
}
