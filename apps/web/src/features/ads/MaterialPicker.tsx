import { AD_MAX_MATERIALS } from '@marquee/protocol';
import { useQuery } from '@tanstack/react-query';
import { Button, Empty, Input, Modal, Segmented, Spin, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';

export interface PickedMaterial {
  id: string;
  name: string;
}

/**
 * The ad's materials: the picked ones in order (removable), and a picker of the library's
 * ready images and videos with thumbnails; at most AD_MAX_MATERIALS.
 */
export function MaterialPicker({
  value = [],
  onChange,
}: {
  value?: PickedMaterial[];
  onChange?: (next: PickedMaterial[]) => void;
}) {
  const { t } = useTranslation(['ads', 'material']);
  const [open, setOpen] = useState(false);
  const [type, setType] = useState<'image' | 'video'>('image');
  const [name, setName] = useState('');
  const list = useQuery({
    queryKey: ['materials', 'adPicker', type, name],
    queryFn: ({ signal }) =>
      call('materialList', { page: 1, size: 100, type, status: 'ready', name: name || undefined }, { signal }),
    enabled: open,
  });
  const picked = new Set(value.map((m) => m.id));
  const toggle = (m: PickedMaterial) => {
    if (picked.has(m.id)) onChange?.(value.filter((v) => v.id !== m.id));
    else if (value.length < AD_MAX_MATERIALS) onChange?.([...value, { id: m.id, name: m.name }]);
  };
  return (
    <div data-testid="ad-materials">
      <div style={{ marginBottom: 8 }}>
        {value.map((m, i) => (
          <Tag key={m.id} closable onClose={() => toggle(m)} data-testid={`ad-material-${m.name}`}>
            {`${i + 1}. ${m.name}`}
          </Tag>
        ))}
      </div>
      <Button onClick={() => setOpen(true)} data-testid="ad-materials-pick">
        {t('edit.pickMaterials', { picked: value.length, max: AD_MAX_MATERIALS })}
      </Button>
      <Modal
        open={open}
        title={t('edit.materialsTitle')}
        onCancel={() => setOpen(false)}
        footer={<Button onClick={() => setOpen(false)}>{t('edit.done')}</Button>}
        width={760}
        destroyOnHidden
      >
        <div style={{ display: 'flex', gap: 8, marginBottom: 12 }}>
          <Segmented
            value={type}
            onChange={(v) => setType(v as 'image' | 'video')}
            options={[
              { value: 'image', label: t('type.image', { ns: 'material' }) },
              { value: 'video', label: t('type.video', { ns: 'material' }) },
            ]}
          />
          <Input.Search
            allowClear
            aria-label={t('edit.materialSearch')}
            placeholder={t('edit.materialSearch')}
            onSearch={setName}
            style={{ width: 220 }}
          />
          <span>{t('edit.pickedCount', { picked: value.length, max: AD_MAX_MATERIALS })}</span>
        </div>
        <Spin spinning={list.isFetching}>
          {list.data && list.data.data.length === 0 ? (
            <Empty description={t('edit.noMaterials')} />
          ) : (
            <div className="mq-ad-picker-grid">
              {(list.data?.data ?? []).map((m) => {
                const on = picked.has(m.id);
                return (
                  <button
                    type="button"
                    key={m.id}
                    className={on ? 'mq-ad-picker-item is-picked' : 'mq-ad-picker-item'}
                    aria-pressed={on}
                    disabled={!on && value.length >= AD_MAX_MATERIALS}
                    onClick={() => toggle(m)}
                    data-testid={`ad-pick-${m.name}`}
                  >
                    {m.thumbUrl ? (
                      <img src={m.thumbUrl} alt="" loading="lazy" />
                    ) : (
                      <span className="mq-ad-picker-blank" />
                    )}
                    <span className="mq-ad-picker-name">{m.name}</span>
                  </button>
                );
              })}
            </div>
          )}
        </Spin>
      </Modal>
    </div>
  );
}
