import { AD_MAX_MATERIALS } from '@marquee/protocol';
import { Button, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MaterialPicker as LibraryPicker } from '../materials/MaterialPicker';

export interface PickedMaterial {
  id: string;
  name: string;
}

const AD_KINDS = ['image', 'video'] as const;

/**
 * The ad's materials (a form field): the picked ones in order (removable), and the library's
 * picker of ready images and videos (the editors' MaterialPicker) to add more, at most
 * AD_MAX_MATERIALS in all.
 */
export function AdMaterialsField({
  value = [],
  onChange,
}: {
  value?: PickedMaterial[];
  onChange?: (next: PickedMaterial[]) => void;
}) {
  const { t } = useTranslation(['ads', 'material']);
  const [open, setOpen] = useState(false);
  const room = AD_MAX_MATERIALS - value.length;
  return (
    <div data-testid="ad-materials">
      <div style={{ marginBottom: 8 }}>
        {value.map((m, i) => (
          <Tag
            key={m.id}
            closable
            onClose={() => onChange?.(value.filter((v) => v.id !== m.id))}
            data-testid={`ad-material-${m.name}`}
          >
            {`${i + 1}. ${m.name}`}
          </Tag>
        ))}
      </div>
      <Button onClick={() => setOpen(true)} disabled={room <= 0} data-testid="ad-materials-pick">
        {t('edit.pickMaterials', { picked: value.length, max: AD_MAX_MATERIALS })}
      </Button>
      <LibraryPicker
        open={open}
        kind={AD_KINDS}
        max={Math.max(room, 1)}
        exclude={new Set(value.map((m) => m.id))}
        onClose={() => setOpen(false)}
        onPick={(chosen) => onChange?.([...value, ...chosen.map((m) => ({ id: m.id, name: m.name }))])}
      />
    </div>
  );
}
