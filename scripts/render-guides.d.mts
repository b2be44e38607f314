// Types of scripts/render-guides.mjs, for the TypeScript tests that import it.
export interface Guide {
  file: string;
  title: string;
  summary: string;
}
export interface RenderedGuide extends Guide {
  page: string;
  anchors: string[];
  summaryHtml: string;
}
export function slugger(): (text: string) => string;
export function guidesOf(readme: string): Guide[];
export function renderGuides(options: { root: string; outDir: string }): RenderedGuide[];
