import {
  AudioOutlined,
  FileOutlined,
  FilePdfOutlined,
  FileZipOutlined,
  GlobalOutlined,
  PictureOutlined,
  VideoCameraOutlined,
  WifiOutlined,
} from '@ant-design/icons';
import type { MaterialType } from '@marquee/protocol';
import { formatSize } from '@marquee/protocol';
import { Checkbox, Empty, Spin, Tag, Tooltip } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDuration } from './checks';
import type { MaterialRow } from './types';

const TYPE_ICONS: Record<MaterialType, ReactNode> = {
  image: <PictureOutlined />,
  video: <VideoCameraOutlined />,
  audio: <AudioOutlined />,
  document: <FileOutlined />,
  archive: <FileZipOutlined />,
  web: <GlobalOutlined />,
  stream: <WifiOutlined />,
};

/** The icon of a material's type (a PDF has its own). */
export function TypeIcon({ row }: { row: Pick<MaterialRow, 'type' | 'mime'> }) {
  if (row.type === 'document' && row.mime === 'application/pdf') return <FilePdfOutlined />;
  return <>{TYPE_ICONS[row.type] ?? <FileOutlined />}</>;
}

/** A material's status tag: processing, or invalid with its reason; nothing when ready. */
export function StatusTag({ row }: { row: MaterialRow }) {
  const { t } = useTranslation('material');
  if (row.status === 'processing') return <Tag color="processing">{t('status.processing')}</Tag>;
  if (row.status === 'invalid')
    return (
      <Tooltip title={row.invalidReason || undefined}>
        <Tag color="error" data-testid={`material-invalid-${row.name}`}>
          {t('status.invalid')}
          {row.invalidReason ? `: ${row.invalidReason}` : ''}
        </Tag>
      </Tooltip>
    );
  return null;
}

/**
 * The grid view of the library: a card per material with its thumbnail (or its type's icon),
 * a duration badge on video and audio, the type icon, name, size in Bytes/KB/MB/GB/TB and
 * status. A card is a button: click or Enter previews it, Delete asks to delete it, the
 * checkbox selects it for the batch actions.
 */
export function MaterialGrid({
  rows,
  loading,
  empty,
  selected,
  onToggle,
  onOpen,
  onDelete,
  actions,
}: {
  rows: readonly MaterialRow[];
  loading: boolean;
  empty: string;
  selected: readonly string[];
  onToggle?: (id: string, on: boolean) => void;
  onOpen: (row: MaterialRow) => void;
  onDelete?: (row: MaterialRow) => void;
  actions: (row: MaterialRow) => ReactNode;
}) {
  const { t } = useTranslation('material');
  if (rows.length === 0) {
    return loading ? (
      <div className="mq-material-grid-loading">
        <Spin />
      </div>
    ) : (
      <Empty description={empty} data-testid="material-empty" />
    );
  }
  return (
    <Spin spinning={loading}>
      <ul className="mq-material-grid" data-testid="material-grid">
        {rows.map((row) => {
          const isSelected = selected.includes(row.id);
          const badge =
            (row.type === 'video' || row.type === 'audio') && row.duration ? formatDuration(row.duration) : '';
          return (
            <li
              key={row.id}
              className={isSelected ? 'is-selected' : undefined}
              data-testid={`material-card-${row.name}`}
            >
              <div
                role="button"
                tabIndex={0}
                className="mq-material-thumb"
                aria-label={t('preview.open', { name: row.name })}
                onClick={() => onOpen(row)}
                onKeyDown={(e) => {
                  if (e.key === 'Enter') {
                    e.preventDefault();
                    onOpen(row);
                  } else if (e.key === 'Delete' && onDelete) {
                    e.preventDefault();
                    onDelete(row);
                  }
                }}
                data-testid={`material-open-${row.name}`}
              >
                {row.thumbUrl ? (
                  <img src={row.thumbUrl} alt={row.name} loading="lazy" data-testid={`material-thumb-${row.name}`} />
                ) : (
                  <span className="mq-material-thumb-icon" aria-hidden>
                    <TypeIcon row={row} />
                  </span>
                )}
                {badge ? (
                  <span className="mq-material-duration" data-testid={`material-duration-${row.name}`}>
                    {badge}
                  </span>
                ) : null}
                <span className="mq-material-type" title={t(`type.${row.type}`)}>
                  <TypeIcon row={row} />
                </span>
              </div>
              <div className="mq-material-card-body">
                <div className="mq-material-card-title">
                  {onToggle ? (
                    <Checkbox
                      checked={isSelected}
                      onChange={(e) => onToggle(row.id, e.target.checked)}
                      aria-label={row.name}
                      data-testid={`material-select-${row.name}`}
                    />
                  ) : null}
                  <Tooltip title={row.name}>
                    <span className="mq-material-name">{row.name}</span>
                  </Tooltip>
                </div>
                <div className="mq-material-card-meta">
                  <span>
                    {row.type === 'web' || row.type === 'stream' ? t(`type.${row.type}`) : formatSize(row.size)}
                  </span>
                  {row.width && row.height ? (
                    <span>
                      {row.width}×{row.height}
                    </span>
                  ) : null}
                  {row.duplicateCount > 0 ? (
                    <Tag color="warning" data-testid={`material-duplicate-${row.name}`}>
                      {t('duplicateTag')}
                    </Tag>
                  ) : null}
                  <StatusTag row={row} />
                </div>
                <div className="mq-material-card-actions">{actions(row)}</div>
              </div>
            </li>
          );
        })}
      </ul>
    </Spin>
  );
}
