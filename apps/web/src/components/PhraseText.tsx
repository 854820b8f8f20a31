import { Fragment } from 'react';

const segmenters = new Map<string, Intl.Segmenter>();

/**
 * The words of a text in the given language (Intl.Segmenter, dictionary-based for Japanese
 * and Chinese): 'テンプレート管理' -> ['テンプレート', '管理']. One segment when the runtime has
 * no segmenter.
 */
export function phrases(text: string, locale: string): string[] {
  if (typeof Intl === 'undefined' || !('Segmenter' in Intl)) return [text];
  let segmenter = segmenters.get(locale);
  if (!segmenter) {
    segmenter = new Intl.Segmenter(locale, { granularity: 'word' });
    segmenters.set(locale, segmenter);
  }
  return [...segmenter.segment(text)].map((s) => s.segment);
}

/**
 * A short label that wraps only between words: a `<wbr>` between the words and CSS
 * `word-break: keep-all` on the container (class `mq-phrase`), so a narrow label in Japanese
 * reads 'テンプレート / 管理' rather than 'テンプレー / ト管理'. A word longer than the line still
 * breaks (overflow-wrap: anywhere).
 */
export function PhraseText({ text, locale }: { text: string; locale: string }) {
  const words = phrases(text, locale);
  return (
    <span className="mq-phrase">
      {words.map((word, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the words of one fixed text, in order
        <Fragment key={i}>
          {i > 0 ? <wbr /> : null}
          {word}
        </Fragment>
      ))}
    </span>
  );
}
