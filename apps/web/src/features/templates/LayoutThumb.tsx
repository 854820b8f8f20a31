import { fitScale, type LayoutDocument, LayoutPage } from '@marquee/layout';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

const EMPTY = {};

/**
 * A layout's first page drawn small (the template list's thumbnail): the real renderer in
 * thumbnail mode (no frames or videos loaded), clocks stopped at the time the row appeared.
 */
export function LayoutThumb({
  doc,
  width = 96,
  height = 54,
}: {
  doc: LayoutDocument | null;
  width?: number;
  height?: number;
}) {
  const { i18n } = useTranslation();
  const [now] = useState(() => Date.now());
  if (!doc) return <div className="mq-template-thumb mq-template-thumb-empty" style={{ width, height }} />;
  const scale = fitScale(doc, width, height);
  return (
    <div className="mq-template-thumb" style={{ width, height }} aria-hidden>
      <LayoutPage doc={doc} page={0} materials={EMPTY} scale={scale} now={now} locale={i18n.language} lite />
    </div>
  );
}
