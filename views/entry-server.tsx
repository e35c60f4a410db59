import { renderToString } from 'react-dom/server';
import pages from 'virtual:pages';
import { collected } from './components/Island';
import { Layout } from './components/Layout';
import { ShellProvider, type Shell } from './lib/shell';

// Called from Go (ssr/pool.go) with the page name and its props as one JSON string.
// Answers the islands as JSON, a newline, then the HTML.
function render(name: string, json: string): string {
  const Page = pages[name];
  if (!Page) throw new Error('unknown page ' + name);
  const { shell, page } = JSON.parse(json) as { shell: Shell; page: Record<string, unknown> };
  collected.length = 0;
  try {
    const html = renderToString(
      <ShellProvider value={shell}>
        <Layout shell={shell} bare={(Page as { bare?: boolean }).bare}>
          <Page {...page} />
        </Layout>
      </ShellProvider>,
    );
    return JSON.stringify(collected) + '\n' + html;
  } finally {
    collected.length = 0;
  }
}

(globalThis as unknown as { __mmRender: typeof render }).__mmRender = render;
