import type * as vscode from 'vscode';
import type { ToolResult } from '../../agent/types';

/** A tool's implementation as the loop calls it: the input already checked against the tool's schema. */
export type HostTool = (input: Record<string, unknown>, signal: AbortSignal) => Promise<ToolResult>;

/** What the read-only tools need from the rest of the extension. */
export interface ToolEnv {
  /** The stored API key: text that contains it is never returned. */
  apiKey(): Promise<string | undefined>;
  /**
   * Where ripgrep is: a path to use instead of the one under `vscode.env.appRoot` (a path that does not exist makes
   * the tools use their fallback), or undefined to look under the app root.
   */
  ripgrepPath?: string;
  /** Told each time a tool starts ripgrep (tests check which binary ran). */
  onSpawn?(command: string, args: readonly string[]): void;
  log?: vscode.LogOutputChannel;
}
