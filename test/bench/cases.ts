/** The benchmark cases in the order they run; each returns its table rows. */
import { agentParserRows } from './agentParser';
import { agentSearchRows } from './agentSearch';
import { agentFixedPromptRows } from './agentFixedPrompt';
import { agentCommandHostRows } from './agentCommandHost';
import { agentLoopRows } from './agentLoop';
import { agentLoopHostRows } from './agentLoopHost';
import { agentMcpRows } from './agentMcp';
import { agentWebviewRows } from './agentWebview';
import { benchImageFiles, chatImageRows } from './chatImages';
import { clientOverheadRows } from './clientOverhead';
import { completionExtHostRows, completionRows } from './completions';
import { contextExtHostRows } from './context';
import { contextSendRows } from './contextSend';
import { attachmentWebviewRows } from './contextWebview';
import { imageNodeRows } from './images';
import type { Row } from './report';
import type { BenchSettings } from './settings';
import { sseThroughputRows } from './sseThroughput';
import { historyRows } from './history';
import { renderRows } from './render';
import { reviewRows } from './review';
import { sizeRows } from './sizes';
import { activationRows, imageExtHostRows } from './startup';
import { productionStage } from './stage';
import { unbrokenRows } from './unbroken';
import { type WebBench, startWebBench } from './webPage';

/** Runs a browser case with its own Chromium (so a crash in one case never leaks into the next). */
function inBrowser(
  run: (web: WebBench, settings: BenchSettings) => Promise<Row[]>,
  files?: () => Record<string, { body: Buffer; type: string }>,
) {
  return async (settings: BenchSettings): Promise<Row[]> => {
    const web = await startWebBench(await productionStage(), files?.());
    try {
      return await run(web, settings);
    } finally {
      await web.close();
    }
  };
}

/** One case of the issue. */
export interface CaseRunner {
  n: number;
  name: string;
  run(settings: BenchSettings): Promise<Row[]>;
}

/** Every case; index.ts runs the selected ones in this order. */
export const caseRunners: CaseRunner[] = [
  { n: 1, name: '1. Client overhead', run: clientOverheadRows },
  { n: 1, name: '1. SSE decoding', run: sseThroughputRows },
  { n: 2, name: '2. Streaming render', run: inBrowser(renderRows) },
  { n: 3, name: '3. Long history', run: inBrowser(historyRows) },
  { n: 4, name: '4. Start-up and size (sizes)', run: () => sizeRows() },
  { n: 4, name: '4. Start-up and size (activation)', run: activationRows },
  { n: 5, name: '5. Large images (Node)', run: imageNodeRows },
  { n: 5, name: '5. Large images (extension host)', run: imageExtHostRows },
  { n: 6, name: '6. Unbroken runs', run: inBrowser(unbrokenRows) },
  { n: 7, name: '7. Chat context (extension host)', run: contextExtHostRows },
  {
    n: 7,
    name: '7. Chat context (webview)',
    run: (settings) =>
      settings.context.sendPathOnly
        ? Promise.resolve([])
        : inBrowser((web, s) => attachmentWebviewRows(web, s.context.webRounds, s.context.attachmentBytes))(
            settings,
          ),
  },
  { n: 7, name: '7. Chat context (send path, real editor)', run: contextSendRows },
  { n: 8, name: '8. Edit review (extension host)', run: reviewRows },
  { n: 9, name: '9. Inline completions (extension host)', run: completionExtHostRows },
  { n: 9, name: '9. Inline completions (engine alone, plain Node)', run: completionRows },
  { n: 10, name: '10. Images in the chat (webview)', run: inBrowser(chatImageRows, benchImageFiles) },
  { n: 11, name: '11. Agent: text-protocol parser (plain Node)', run: agentParserRows },
  { n: 12, name: '12. Agent tools: search_text (extension host)', run: agentSearchRows },
  { n: 13, name: '13. Agent loop (plain Node)', run: agentLoopRows },
  { n: 14, name: '14. Agent loop (extension host)', run: agentLoopHostRows },
  { n: 15, name: '15. Agent run in the webview', run: inBrowser(agentWebviewRows) },
  { n: 16, name: '16. Agent cost: fixed part of every request', run: agentFixedPromptRows },
  { n: 17, name: '17. Agent: first MCP tool call (plain Node)', run: agentMcpRows },
  { n: 18, name: '18. Agent command: output to the model (extension host)', run: agentCommandHostRows },
];
