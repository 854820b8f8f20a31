import { fitScale, type LayoutDocument, LayoutPlayer, type MaterialLookup } from '@marquee/layout';
import { Modal } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** Plays the layout as a screen would (D's LayoutPlayer): pages for their durations, buttons, media. */
export function PreviewDialog({
  open,
  onClose,
  doc,
  materials,
  locale,
  title,
}: {
  open: boolean;
  onClose: () => void;
  doc: LayoutDocument;
  materials: MaterialLookup;
  locale: string;
  title: string;
}) {
  const { t } = useTranslation('layoutEditor');
  const [page, setPage] = useState(0);
  const box = useRef<HTMLDivElement | null>(null);
  const [scale, setScale] = useState(0);
  useEffect(() => {
    if (!open) return;
    const measure = () => {
      const w = Math.min(window.innerWidth * 0.86, 1600);
      const h = window.innerHeight * 0.7;
      setScale(fitScale(doc, w, h));
    };
    measure();
    window.addEventListener('resize', measure);
    return () => window.removeEventListener('resize', measure);
  }, [open, doc]);
  return (
    <Modal
      open={open}
      onCancel={onClose}
      footer={null}
      width={Math.max(320, Math.round(doc.width * scale) + 48)}
      title={t('preview.title', { name: title })}
      destroyOnHidden
      centered
    >
      <div ref={box} className="mq-le-preview" data-testid="le-preview-player">
        {open && scale > 0 ? (
          <LayoutPlayer doc={doc} materials={materials} scale={scale} locale={locale} onPageChange={setPage} />
        ) : null}
      </div>
      <div className="mq-le-preview-status" data-testid="le-preview-page">
        {t('preview.page', { n: page + 1, total: doc.pages.length })}
      </div>
    </Modal>
  );
}
