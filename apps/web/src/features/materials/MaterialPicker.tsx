import { CustomerServiceOutlined, FileImageOutlined, VideoCameraOutlined } from '@ant-design/icons';
import type { RenderMaterial } from '@marquee/layout';
import { formatSize, type Material } from '@marquee/protocol';
import { Alert, type ButtonProps, Empty, Input, Modal, Pagination, Segmented, Spin, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCallQuery } from '../../api/queries';
import { formatDuration } from './checks';
import { FolderSelect } from './FolderSelect';
import './materialPicker.css';

/** The kinds of material an editor draws or plays. */
export type MaterialKind = 'image' | 'video' | 'audio';

/** One of the list endpoint's page sizes. */
const PAGE_SIZE = 20;
const KIND_ICONS = { image: FileImageOutlined, video: VideoCameraOutlined, audio: CustomerServiceOutlined };

/** What the editor keeps of a picked material to draw it (the renderer's lookup entry). */
export function renderMaterialOf(m: Material): RenderMaterial {
  return {
    url: m.url,
    type: m.type,
    width: m.width,
    height: m.height,
    duration: m.duration,
    thumbUrl: m.thumbUrl,
    name: m.name,
  };
}

/**
 * Picks materials of one kind from the library for the editors (the layout editor's pictures,
 * backgrounds, videos and music; the poster editor's images): a folder (its sub-folders included), a name search, a page of ready
 * materials with thumbnails, sizes and durations; click or Enter/Space toggles one (a single
 * one where the component takes one), OK adds them in the order picked.
 */
export function MaterialPicker({
  open,
  kind: kinds,
  max,
  onClose,
  onPick,
  exclude,
}: {
  open: boolean;
  /** The kind, or the kinds offered one at a time (an ad's images and videos). */
  kind: MaterialKind | readonly MaterialKind[];
  /** How many may be picked (1 for a single material). */
  max: number;
  onClose: () => void;
  onPick: (materials: Material[]) => void;
  /** Materials already chosen elsewhere (shown as taken, not pickable again). */
  exclude?: ReadonlySet<string>;
}) {
  const kindList: readonly MaterialKind[] = typeof kinds === 'string' ? [kinds] : kinds;
  const [kindChoice, setKindChoice] = useState<MaterialKind>(kindList[0]);
  const kind = kindList.includes(kindChoice) ? kindChoice : kindList[0];
  const { t } = useTranslation('material');
  const [folderId, setFolderId] = useState<string | undefined>();
  const [name, setName] = useState('');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [picked, setPicked] = useState<Material[]>([]);

  useEffect(() => {
    if (open) setPicked([]);
  }, [open]);

  const request = {
    page,
    size: PAGE_SIZE,
    type: kind,
    status: 'ready' as const,
    ...(folderId ? { folderId } : {}),
    ...(search ? { name: search } : {}),
  };
  const list = useCallQuery('materialList', request, { enabled: open, keepPrevious: true });

  const toggle = (m: Material) =>
    setPicked((current) => {
      if (current.some((x) => x.id === m.id)) return current.filter((x) => x.id !== m.id);
      if (max === 1) return [m];
      return current.length >= max ? current : [...current, m];
    });

  const Icon = KIND_ICONS[kind];
  const rows = list.data?.data ?? [];
  return (
    <Modal
      open={open}
      title={t(kindList.length > 1 ? 'picker.title.media' : `picker.title.${kind}`)}
      width={840}
      onCancel={onClose}
      okText={t('picker.ok', { count: picked.length })}
      okButtonProps={{ disabled: picked.length === 0, ...({ 'data-testid': 'material-picker-ok' } as ButtonProps) }}
      onOk={() => {
        onPick(picked);
        onClose();
      }}
      destroyOnHidden
    >
      <div className="mq-picker" data-testid="material-picker">
        <div className="mq-picker-filters">
          {kindList.length > 1 ? (
            <Segmented
              value={kind}
              onChange={(v) => {
                setKindChoice(v as MaterialKind);
                setPage(1);
              }}
              options={kindList.map((k) => ({ value: k, label: t(`type.${k}`) }))}
              data-testid="material-picker-kind"
            />
          ) : null}
          <FolderSelect
            allowClear
            value={folderId}
            onChange={(v: string | undefined) => {
              setFolderId(v);
              setPage(1);
            }}
            placeholder={t('picker.allFolders')}
            aria-label={t('picker.folder')}
            style={{ width: 240 }}
            testId="material-picker-folder"
          />
          <Input.Search
            allowClear
            value={name}
            maxLength={50}
            onChange={(e) => setName(e.target.value)}
            onSearch={(v) => {
              setSearch(v.trim());
              setPage(1);
            }}
            placeholder={t('picker.search')}
            aria-label={t('picker.search')}
            style={{ width: 260 }}
            data-testid="material-picker-search"
          />
          <Typography.Text type="secondary">
            {max === 1 ? t('picker.pickOne') : t('picker.picked', { count: picked.length, max })}
          </Typography.Text>
        </div>
        <Spin spinning={list.isFetching}>
          {list.isError ? (
            <Alert type="error" showIcon message={list.error.message} data-testid="material-picker-error" />
          ) : rows.length === 0 && !list.isPending ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t(`picker.empty.${kind}`)} />
          ) : (
            <ul className="mq-picker-grid" aria-label={t(`picker.title.${kind}`)}>
              {rows.map((m) => {
                const order = picked.findIndex((x) => x.id === m.id);
                const chosen = order >= 0;
                const taken = exclude?.has(m.id) ?? false;
                return (
                  <li key={m.id}>
                    <button
                      type="button"
                      className={chosen ? 'mq-picker-item is-picked' : 'mq-picker-item'}
                      aria-pressed={chosen}
                      disabled={taken || (!chosen && max > 1 && picked.length >= max)}
                      title={taken ? t('picker.taken') : undefined}
                      onClick={() => toggle(m)}
                      data-testid={`material-picker-item-${m.name}`}
                    >
                      <span className="mq-picker-thumb">
                        {m.thumbUrl ? <img src={m.thumbUrl} alt="" loading="lazy" /> : <Icon aria-hidden />}
                        {chosen && max > 1 ? <span className="mq-picker-order">{order + 1}</span> : null}
                      </span>
                      <span className="mq-picker-name" title={m.name}>
                        {m.name}
                      </span>
                      <span className="mq-picker-meta">
                        {[
                          m.width && m.height ? `${m.width}×${m.height}` : null,
                          m.duration ? formatDuration(m.duration) : null,
                          formatSize(m.size),
                        ]
                          .filter(Boolean)
                          .join(' · ')}
                      </span>
                    </button>
                  </li>
                );
              })}
            </ul>
          )}
        </Spin>
        {(list.data?.total ?? 0) > PAGE_SIZE ? (
          <Pagination
            size="small"
            current={page}
            pageSize={PAGE_SIZE}
            total={list.data?.total ?? 0}
            onChange={setPage}
            showSizeChanger={false}
            style={{ marginTop: 12, textAlign: 'right' }}
          />
        ) : null}
      </div>
    </Modal>
  );
}
