import { fitScale, LayoutPlayer } from '@marquee/layout';
import { Empty, Modal, Spin, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCallQuery } from '../../api/queries';

const BOX = { width: 800, height: 450 };

/**
 * Plays a layout as a screen would (pages by their durations, buttons work), scaled into the
 * dialog: the same renderer as the editor canvas and the player.
 */
export function TemplatePreviewDialog({ id, onClose }: { id: string | null; onClose: () => void }) {
  const { t, i18n } = useTranslation('templates');
  const [pageIndex, setPageIndex] = useState(0);
  const info = useCallQuery('templateInfo', { id: id ?? '' }, { enabled: id !== null });
  const doc = info.data?.document;
  // The weather components' cities: their readings come from the server's provider (or none).
  const cities = [
    ...new Set(
      (doc?.pages ?? []).flatMap((p) =>
        p.components.flatMap((c) => (c.type === 'weather' && c.props.city ? [c.props.city] : [])),
      ),
    ),
  ].slice(0, 20);
  const weather = useCallQuery(
    'weatherCurrent',
    { cities },
    { enabled: id !== null && cities.length > 0, staleTime: 5 * 60_000 },
  );
  return (
    <Modal
      open={id !== null}
      onCancel={onClose}
      footer={null}
      width={BOX.width + 48}
      title={info.data ? t('preview.title', { name: info.data.name }) : t('preview')}
      destroyOnHidden
      data-testid="template-preview"
    >
      {info.isLoading ? (
        <div className="mq-template-preview-box" style={BOX}>
          <Spin />
        </div>
      ) : doc ? (
        <>
          <div className="mq-template-preview-box" style={BOX}>
            <LayoutPlayer
              doc={doc}
              materials={info.data?.materials ?? {}}
              scale={fitScale(doc, BOX.width, BOX.height)}
              locale={i18n.language}
              weather={weather.data?.readings}
              onPageChange={setPageIndex}
            />
          </div>
          <Typography.Text type="secondary" data-testid="template-preview-page">
            {t('preview.page', {
              index: pageIndex + 1,
              total: doc.pages.length,
              name: doc.pages[pageIndex]?.name || '',
            })}
          </Typography.Text>
        </>
      ) : (
        <Empty description={t('preview.unavailable')} />
      )}
    </Modal>
  );
}
