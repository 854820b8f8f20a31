import { type MaterialMediaType, materialNameSchema, mediaUrlValid } from '@marquee/protocol';
import { Form, Input, Radio } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCallMutation } from '../../api/queries';
import { FormDialog } from '../../components/FormDialog';
import { SingleTextField } from '../../components/SingleTextField';
import { requiredRule, zodRule } from '../../components/zodRule';
import { FolderSelect } from './FolderSelect';
import type { AddToFolderProps, MaterialRow } from './types';

/** Renames a material (the name shown in the library; the file keeps its content). */
export function MaterialRenameDialog({ row, onClose }: { row: MaterialRow | null; onClose: () => void }) {
  const { t } = useTranslation(['material', 'common']);
  const rename = useCallMutation('materialRename');
  return (
    <FormDialog<{ name: string }>
      open={row !== null}
      title={t('renameTitle', { name: row?.name ?? '' })}
      onClose={onClose}
      submit={({ name }) => rename.mutateAsync({ id: row?.id ?? '', name: name.trim() })}
      success={t('toast.renamed')}
      values={{ name: row?.name ?? '' }}
      okText={t('action.save')}
      cancelText={t('action.cancel')}
      submitTestId="material-rename-submit"
    >
      <SingleTextField label={t('field.name')} schema={materialNameSchema} testId="material-rename-name" />
    </FormDialog>
  );
}

/** Moves one or several materials into a folder. */
export function MaterialMoveDialog({
  ids,
  onClose,
  onDone,
}: {
  ids: string[] | null;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation(['material', 'common', 'validation']);
  const move = useCallMutation('materialMove');
  return (
    <FormDialog<{ folderId: string }>
      open={ids !== null}
      title={t('moveTitle', { count: ids?.length ?? 0 })}
      onClose={onClose}
      onDone={onDone}
      submit={({ folderId }) => move.mutateAsync({ ids: ids ?? [], folderId })}
      success={t('toast.moved')}
      okText={t('action.move')}
      cancelText={t('action.cancel')}
      submitTestId="material-move-submit"
    >
      <Form.Item name="folderId" label={t('folder.target')} rules={[requiredRule(t)]}>
        <FolderSelect
          showSearch={{ treeNodeFilterProp: 'title' }}
          placeholder={t('folder.choose')}
          testId="material-move-target"
        />
      </Form.Item>
    </FormDialog>
  );
}

interface MediaValues {
  type: MaterialMediaType;
  name: string;
  url: string;
  folderId: string;
}

/** Adds a web page or a live stream URL as a material of a folder. */
export function MediaDialog({ open, folderId, onClose }: AddToFolderProps) {
  const { t } = useTranslation(['material', 'common', 'validation']);
  const add = useCallMutation('materialMediaAdd');
  return (
    <FormDialog<MediaValues>
      open={open}
      title={t('media.title')}
      onClose={onClose}
      submit={(v) => add.mutateAsync({ ...v, name: v.name.trim(), url: v.url.trim() })}
      success={t('toast.mediaAdded')}
      initialValues={{ type: 'web' }}
      values={{ folderId }}
      okText={t('action.save')}
      cancelText={t('action.cancel')}
      submitTestId="media-submit"
      testId="media-dialog"
    >
      <Form.Item name="type" label={t('field.type')}>
        <Radio.Group
          options={[
            { value: 'web', label: t('type.web') },
            { value: 'stream', label: t('type.stream') },
          ]}
        />
      </Form.Item>
      <Form.Item
        name="folderId"
        label={t('field.folder')}
        rules={[{ required: true, message: t('upload.chooseFolder') }]}
      >
        <FolderSelect placeholder={t('folder.choose')} testId="media-folder" />
      </Form.Item>
      <Form.Item name="name" label={t('field.name')} rules={[requiredRule(t), zodRule(materialNameSchema, t)]}>
        <Input maxLength={materialNameSchema.maxLength ?? undefined} showCount data-testid="media-name" />
      </Form.Item>
      <Form.Item
        name="url"
        label={t('field.url')}
        extra={t('media.urlHint')}
        dependencies={['type']}
        rules={[
          requiredRule(t),
          ({ getFieldValue }) => ({
            validator: async (_r, value: string | undefined) => {
              if (value && !mediaUrlValid(getFieldValue('type'), value.trim())) throw new Error(t('media.urlInvalid'));
            },
          }),
        ]}
      >
        <Input placeholder="https://" data-testid="media-url" />
      </Form.Item>
    </FormDialog>
  );
}
