// The edit review's run-time (Generate Code, Apply, the streaming preview and the per-hunk review) as one entry:
// the shipped extension builds it into dist/review.js and requires it on first use (editReviewHost.ts), so
// activation does not parse it (see esbuild.mjs).
import type * as vscode from 'vscode';
import type { ExtensionConfig } from '../config';
import type { GatewayService } from '../gatewayService';
import { applyCodeBlockCommand } from './applyBlock';
import { generateCodeCommand } from './generateCode';
import { ReviewController } from './reviewController';

/** What the run-time needs from the activation bundle. */
export interface ReviewRuntimeDeps {
  context: vscode.ExtensionContext;
  gateway: GatewayService;
  getConfig: () => ExtensionConfig;
  /** The editor tracker of the activation bundle (module state there, so it is passed, not imported). */
  lastEditor: () => vscode.TextEditor | undefined;
}

/** The review controller and the two commands that stream an edit into it. */
export interface ReviewRuntime {
  controller: ReviewController;
  generate: ReturnType<typeof generateCodeCommand>;
  apply: ReturnType<typeof applyCodeBlockCommand>;
}

/** Builds the run-time once, on the first use of a review command. */
export function createReviewRuntime(deps: ReviewRuntimeDeps): ReviewRuntime {
  const controller = new ReviewController();
  return {
    controller,
    generate: generateCodeCommand(deps.context, deps.gateway, deps.getConfig, controller, deps.lastEditor),
    apply: applyCodeBlockCommand(deps.gateway, deps.getConfig, controller, deps.lastEditor),
  };
}
