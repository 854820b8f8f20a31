import {
  ArrowDownOutlined,
  ArrowUpOutlined,
  DeleteOutlined,
  EditOutlined,
  EyeInvisibleOutlined,
  EyeOutlined,
  LockOutlined,
  UnlockOutlined,
} from '@ant-design/icons';
import type { PosterDocument, PosterNode } from '@marquee/protocol';
import { Button, Empty, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { sortedNodes } from './editorState';

/** What a layer is called: its name, else its text, else its type. */
export function layerLabel(node: PosterNode, typeName: string): string {
  if (node.name) return node.name;
  if (node.type === 'text' && node.text?.trim()) return node.text.trim().slice(0, 24);
  return typeName;
}

/** The layers, top first: select, hide, lock, move up or down, delete. */
export function LayersPanel({
  doc,
  selectedId,
  onSelect,
  onChange,
  onReorder,
  onRemove,
}: {
  doc: PosterDocument;
  selectedId: string | null;
  onSelect: (id: string) => void;
  onChange: (id: string, patch: Partial<PosterNode>) => void;
  onReorder: (id: string, to: 'up' | 'down') => void;
  onRemove: (id: string) => void;
}) {
  const { t } = useTranslation('posters');
  const layers = sortedNodes(doc).reverse();
  return (
    <aside className="mq-poster-layers" aria-label={t('layers.title')}>
      <Typography.Title level={5}>{t('layers.title')}</Typography.Title>
      {layers.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('layers.empty')} />
      ) : (
        <ul>
          {layers.map((node, i) => (
            <li
              key={node.id}
              className={node.id === selectedId ? 'is-selected' : undefined}
              data-testid={`poster-layer-${i}`}
            >
              <button type="button" className="mq-poster-layer-name" onClick={() => onSelect(node.id)}>
                {layerLabel(node, t(`type.${node.type}`))}
                {node.field && (
                  <Tag color="blue" icon={<EditOutlined />} className="mq-poster-field-tag">
                    {node.field.label}
                  </Tag>
                )}
              </button>
              <span className="mq-poster-layer-actions">
                <Tooltip title={node.hidden ? t('layers.show') : t('layers.hide')}>
                  <Button
                    size="small"
                    type="text"
                    icon={node.hidden ? <EyeInvisibleOutlined /> : <EyeOutlined />}
                    onClick={() => onChange(node.id, { hidden: !node.hidden })}
                    aria-label={node.hidden ? t('layers.show') : t('layers.hide')}
                  />
                </Tooltip>
                <Tooltip title={node.locked ? t('layers.unlock') : t('layers.lock')}>
                  <Button
                    size="small"
                    type="text"
                    icon={node.locked ? <LockOutlined /> : <UnlockOutlined />}
                    onClick={() => onChange(node.id, { locked: !node.locked })}
                    aria-label={node.locked ? t('layers.unlock') : t('layers.lock')}
                  />
                </Tooltip>
                <Tooltip title={t('layers.up')}>
                  <Button
                    size="small"
                    type="text"
                    icon={<ArrowUpOutlined />}
                    disabled={i === 0}
                    onClick={() => onReorder(node.id, 'up')}
                    aria-label={t('layers.up')}
                  />
                </Tooltip>
                <Tooltip title={t('layers.down')}>
                  <Button
                    size="small"
                    type="text"
                    icon={<ArrowDownOutlined />}
                    disabled={i === layers.length - 1}
                    onClick={() => onReorder(node.id, 'down')}
                    aria-label={t('layers.down')}
                  />
                </Tooltip>
                <Tooltip title={t('layers.delete')}>
                  <Button
                    size="small"
                    type="text"
                    danger
                    icon={<DeleteOutlined />}
                    disabled={node.locked}
                    onClick={() => onRemove(node.id)}
                    aria-label={t('layers.delete')}
                  />
                </Tooltip>
              </span>
            </li>
          ))}
        </ul>
      )}
    </aside>
  );
}
