/**
 * Published VSIX sizes of popular AI extensions, for comparison only. They are NOT measured here: each is
 * a figure someone published, with where it was published. "not found" means no published figure was found
 * (searched: GitHub issues and pull requests, and public web pages, on 2026-11-23 and 2026-11-25); nothing here is
 * guessed.
 */

/** One published figure. */
export interface PublishedSize {
  extension: string;
  size: string;
  source: string;
}

/** The figures as found; update the list (with its source) rather than guessing. */
export const PUBLISHED_SIZES: PublishedSize[] = [
  {
    extension: 'OpenAI Codex (openai.chatgpt)',
    size: '274.34 MB',
    source: 'VS Marketplace size quoted in EclipseFdn/open-vsx.org issue #8724 (2026-03-09)',
  },
  {
    extension: 'MarsCode AI (MarsCode.marscode-extension)',
    size: '289.33 MB',
    source: 'VS Marketplace size quoted in EclipseFdn/open-vsx.org issue #8724 (2026-03-09)',
  },
  {
    extension: 'Cline (saoudrizwan.claude-dev)',
    size: '7.28 MB',
    source: 'packaged VSIX size stated by a maintainer in cline/cline pull request #11632 (2026-06-18)',
  },
  {
    extension: 'GitHub Copilot Chat (GitHub.copilot-chat)',
    size: 'not found',
    source: 'no published figure found',
  },
  {
    extension: 'Continue (Continue.continue)',
    size: '69.6 MiB',
    source:
      "Windows x64 VSIX of v1.3.24 on the project's GitHub release page, as quoted in gni/offvsix issue #3 (2025-11-13)",
  },
  {
    extension: 'Roo Code (RooVeterinaryInc.roo-cline)',
    size: 'not found',
    source: 'no published figure found',
  },
  { extension: 'Twinny (rjmacarthy.twinny)', size: 'not found', source: 'no published figure found' },
];
