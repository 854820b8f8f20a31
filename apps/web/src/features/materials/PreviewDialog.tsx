import { formatSize, formatTime } from '@marquee/protocol';
import { Descriptions, Modal, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDuration, previewKind } from './checks';
import type { MaterialRow } from './types';

/**
 * The preview of a material (spec section 8 'cannot preview' otherwise): an image, a video or
 * an audio with the player's controls, a PDF in the browser's viewer, a web page in a frame;
 * a live stream, another document or an archive cannot be previewed. The file comes from its
 * short-lived signed URL.
 */
export function PreviewDialog({ row, onClose }: { row: MaterialRow | null; onClose: () => void }) {
  const { t } = useTranslation(['material', 'common']);
  const kind = row ? previewKind(row) : 'none';
  let body: React.ReactNode = null;
  if (row) {
    if (kind === 'image')
      body = <img className="mq-preview-media" src={row.url} alt={row.name} data-testid="preview-image" />;
    else if (kind === 'video')
      body = (
        <video className="mq-preview-media" src={row.url} controls preload="metadata" data-testid="preview-video" />
      );
    else if (kind === 'audio') body = <audio src={row.url} controls preload="metadata" data-testid="preview-audio" />;
    else if (kind === 'pdf')
      body = (
        <object
          className="mq-preview-doc"
          data={row.url}
          type="application/pdf"
          aria-label={row.name}
          data-testid="preview-pdf"
        >
          <iframe className="mq-preview-doc" src={row.url} title={row.name} />
        </object>
      );
    else if (kind === 'web')
      body = (
        <iframe
          className="mq-preview-doc"
          src={row.url}
          title={row.name}
          sandbox="allow-scripts allow-same-origin"
          data-testid="preview-web"
        />
      );
    else body = <Result status="info" title={t('preview.cannot')} data-testid="preview-none" />;
  }
  return (
    <Modal
      open={row !== null}
      title={row?.name}
      onCancel={onClose}
      footer={null}
      width={kind === 'pdf' || kind === 'web' ? 960 : 800}
      destroyOnHidden
      data-testid="preview-dialog"
    >
      <div className="mq-preview" data-testid="preview-body">
        {body}
      </div>
      {row ? (
        <Descriptions size="small" column={3} className="mq-preview-facts">
          <Descriptions.Item label={t('field.type')}>{t(`type.${row.type}`)}</Descriptions.Item>
          {row.type === 'web' || row.type === 'stream' ? (
            <Descriptions.Item label={t('field.url')} span={2}>
              {row.url}
            </Descriptions.Item>
          ) : (
            <Descriptions.Item label={t('field.size')}>{formatSize(row.size)}</Descriptions.Item>
          )}
          {row.width && row.height ? (
            <Descriptions.Item label={t('field.resolution')}>
              {row.width}×{row.height}
            </Descriptions.Item>
          ) : null}
          {row.duration ? (
            <Descriptions.Item label={t('field.duration')}>{formatDuration(row.duration)}</Descriptions.Item>
          ) : null}
          <Descriptions.Item label={t('field.uploader')}>{row.uploaderName || '-'}</Descriptions.Item>
          <Descriptions.Item label={t('field.createdAt')}>{formatTime(row.createdAt)}</Descriptions.Item>
        </Descriptions>
      ) : null}
    </Modal>
  );
}
