import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { LAYOUT_LIMITS, lookupMaterial, type PlaylistItem } from '@marquee/layout';
import { Button, Input, InputNumber, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useEditorMaterials } from './materialsContext';

export type MaterialKind = 'image' | 'video' | 'audio';

/**
 * The playlist of a picture, video or music component (or a page's background picture).
 *
 * The material library's catalogue (branch `materials`) is not merged in this branch yet, so the
 * picker takes material ids (pasted from the library) and shows the name of those the layout
 * already knows; a library picker with folders replaces the id input once the catalogue lands.
 */
export function MaterialField({
  kind,
  value,
  onCommit,
  single,
  withDuration,
}: {
  kind: MaterialKind;
  value: readonly PlaylistItem[];
  onCommit: (items: PlaylistItem[]) => void;
  single?: boolean;
  withDuration?: boolean;
}) {
  const { t } = useTranslation('layoutEditor');
  const materials = useEditorMaterials();
  const [draft, setDraft] = useState('');
  const full = single ? value.length >= 1 : value.length >= LAYOUT_LIMITS.maxPlaylistItems;
  const add = () => {
    const id = draft.trim();
    if (!id || id.length > 64) return;
    onCommit(single ? [{ materialId: id, duration: 10 }] : [...value, { materialId: id, duration: 10 }]);
    setDraft('');
  };
  const move = (from: number, to: number) => {
    const next = [...value];
    const [item] = next.splice(from, 1);
    next.splice(to, 0, item);
    onCommit(next);
  };
  return (
    <div className="mq-le-materials" data-testid={`le-materials-${kind}`}>
      {value.length === 0 ? (
        <Typography.Text type="secondary">{t('materials.none')}</Typography.Text>
      ) : (
        <ol className="mq-le-material-list">
          {value.map((item, i) => {
            const known = lookupMaterial(materials, item.materialId);
            return (
              // biome-ignore lint/suspicious/noArrayIndexKey: a playlist may hold the same material twice; its position is its identity
              <li key={`${item.materialId}-${i}`}>
                <span className="mq-le-material-name" title={item.materialId}>
                  {known?.name || item.materialId}
                </span>
                {withDuration ? (
                  <InputNumber
                    size="small"
                    min={1}
                    max={LAYOUT_LIMITS.maxPageDuration}
                    value={item.duration}
                    suffix={t('unit.seconds')}
                    style={{ width: 92 }}
                    onChange={(v) =>
                      typeof v === 'number' && onCommit(value.map((x, j) => (j === i ? { ...x, duration: v } : x)))
                    }
                  />
                ) : null}
                {single ? null : (
                  <>
                    <Button
                      type="text"
                      size="small"
                      icon={<ArrowUpOutlined />}
                      disabled={i === 0}
                      onClick={() => move(i, i - 1)}
                      aria-label={t('materials.up')}
                    />
                    <Button
                      type="text"
                      size="small"
                      icon={<ArrowDownOutlined />}
                      disabled={i === value.length - 1}
                      onClick={() => move(i, i + 1)}
                      aria-label={t('materials.down')}
                    />
                  </>
                )}
                <Button
                  type="text"
                  size="small"
                  danger
                  icon={<DeleteOutlined />}
                  onClick={() => onCommit(value.filter((_, j) => j !== i))}
                  aria-label={t('materials.remove')}
                />
              </li>
            );
          })}
        </ol>
      )}
      {full ? null : (
        <Space.Compact style={{ width: '100%' }}>
          <Input
            size="small"
            value={draft}
            maxLength={64}
            placeholder={t(`materials.idPlaceholder.${kind}`)}
            onChange={(e) => setDraft(e.target.value)}
            onPressEnter={add}
            data-testid={`le-material-id-${kind}`}
          />
          <Button
            size="small"
            icon={<PlusOutlined />}
            onClick={add}
            disabled={!draft.trim()}
            data-testid={`le-material-add-${kind}`}
          >
            {t('materials.add')}
          </Button>
        </Space.Compact>
      )}
      <Typography.Text type="secondary" className="mq-le-hint">
        {t('materials.libraryPending')}
      </Typography.Text>
    </div>
  );
}
