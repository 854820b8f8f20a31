import { DownloadOutlined, TeamOutlined, UploadOutlined } from '@ant-design/icons';
import { DEVICE_SHARE_IMPORT_MAX, type DeptTreeNode, Perm } from '@marquee/protocol';
import { useMutation } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  type ButtonProps,
  Checkbox,
  Divider,
  Form,
  Modal,
  Radio,
  Select,
  Space,
  Table,
  TreeSelect,
  Typography,
} from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call, download } from '../../api/client';
import { useCallQuery } from '../../api/queries';
import { useFormName } from '../../components/formName';
import { GroupSelect, TagSelect } from '../../components/pickers/options';
import { useCan } from '../../session/useCan';

type By = 'tag' | 'group' | 'department' | 'import';

interface Values {
  by: By;
  ids?: string[];
  action: 'allocate' | 'recycle';
  deptIds?: string[];
  deptOnly?: boolean;
  accountIds?: string[];
}

interface RowError {
  row: number;
  number: string;
  reason: string;
}

type TreeOption = { value: string; title: string; children: TreeOption[] };
const toTree = (nodes: readonly DeptTreeNode[]): TreeOption[] =>
  nodes.map((n) => ({ value: n.id, title: n.name, children: toTree(n.children) }));

/** The file's content as base64 (without the data-URL prefix). */
function readBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

/**
 * The toolbar button of the group and tag lists that opens the bulk sharing dialog (choosing
 * by `defaultBy` first); shown only to those holding data allocation.
 */
export function BulkShareButton({ defaultBy, testId }: { defaultBy: By; testId: string }) {
  const { t } = useTranslation('deviceGroups');
  const can = useCan();
  const [open, setOpen] = useState(false);
  if (!can(Perm.dataAllocation)) return null;
  return (
    <>
      <Button icon={<TeamOutlined />} onClick={() => setOpen(true)} data-testid={testId}>
        {t('bulkShare')}
      </Button>
      <BulkShareDialog open={open} defaultBy={defaultBy} onClose={() => setOpen(false)} />
    </>
  );
}

/**
 * Device permission sharing in bulk (spec section 6): choose devices by tag, group,
 * department or an imported sheet of device numbers, then allocate them to departments and
 * sub-accounts or recycle them. The server writes the same allocations the permission
 * dialog edits. An import with a bad row changes nothing and lists every bad row here.
 */
export function BulkShareDialog({ open, defaultBy, onClose }: { open: boolean; defaultBy: By; onClose: () => void }) {
  const { t } = useTranslation('deviceGroups');
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const formName = useFormName('device-share');
  const by = Form.useWatch('by', form) ?? defaultBy;
  const fileInput = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<{ name: string; data: string } | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [errors, setErrors] = useState<RowError[]>([]);

  const depts = useCallQuery('permissionDeptTree', {}, { enabled: open });
  const accounts = useCallQuery('permissionSubAccounts', {}, { enabled: open });
  const tree = toTree(depts.data?.trees ?? []);

  const close = () => {
    form.resetFields();
    setFile(null);
    setFileError(null);
    setErrors([]);
    onClose();
  };

  const apply = useMutation({
    mutationFn: async (v: Values) => {
      const allocateInfos = [
        ...(v.deptIds ?? []).map((id) => ({
          id,
          type: 1 as const,
          deptDataType: v.deptOnly ? (2 as const) : (1 as const),
        })),
        ...(v.accountIds ?? []).map((id) => ({ id, type: 2 as const })),
      ];
      if (v.by === 'import') {
        const res = await call('deviceShareImport', { file: file?.data ?? '', action: v.action, allocateInfos });
        return { devices: res.devices, skipped: 0, errors: res.errors };
      }
      const res = await call('deviceShareApply', { by: v.by, ids: v.ids ?? [], action: v.action, allocateInfos });
      return { ...res, errors: [] as RowError[] };
    },
    onSuccess: (res) => {
      if (res.errors.length > 0) {
        setErrors(res.errors);
        return;
      }
      void message.success(t('bulkShare.done', { count: res.devices }));
      if (res.skipped > 0) void message.warning(t('bulkShare.skipped', { count: res.skipped }));
      close();
    },
  });

  const chooseFile = async (picked: File | undefined) => {
    setErrors([]);
    setFileError(null);
    if (!picked) return;
    const data = await readBase64(picked);
    if (data.length > DEVICE_SHARE_IMPORT_MAX) {
      setFile(null);
      setFileError(t('bulkShare.fileTooLarge'));
      return;
    }
    setFile({ name: picked.name, data });
  };

  const required = { required: true, message: t('required') };
  return (
    <Modal
      open={open}
      title={t('bulkShare.title')}
      width={640}
      onCancel={close}
      okText={t('bulkShare.submit')}
      cancelText={t('form.cancel')}
      okButtonProps={{ loading: apply.isPending, 'data-testid': 'bulk-share-submit' } as ButtonProps}
      onOk={() => form.submit()}
      destroyOnHidden
      data-testid="bulk-share-dialog"
    >
      <Form<Values>
        form={form}
        name={formName}
        layout="vertical"
        initialValues={{ by: defaultBy, action: 'allocate', deptOnly: false }}
        disabled={apply.isPending}
        onValuesChange={(changed) => {
          if ('by' in changed) form.setFieldValue('ids', undefined);
          setErrors([]);
        }}
        onFinish={(v) => {
          if (!(v.deptIds?.length || v.accountIds?.length)) {
            form.setFields([{ name: 'deptIds', errors: [t('bulkShare.targetsRequired')] }]);
            return;
          }
          if (v.by === 'import' && !file) {
            setFileError(t('required'));
            return;
          }
          apply.mutate(v);
        }}
      >
        <Form.Item name="by" label={t('bulkShare.by')}>
          <Radio.Group
            optionType="button"
            options={(['tag', 'group', 'department', 'import'] as const).map((b) => ({
              value: b,
              label: t(`bulkShare.by.${b}`),
            }))}
            data-testid="bulk-share-by"
          />
        </Form.Item>
        {by === 'tag' ? (
          <Form.Item name="ids" label={t('bulkShare.tags')} rules={[required]}>
            <TagSelect enabled={open} testId="bulk-share-tags" />
          </Form.Item>
        ) : null}
        {by === 'group' ? (
          <Form.Item name="ids" label={t('bulkShare.groups')} rules={[required]}>
            <GroupSelect enabled={open} testId="bulk-share-groups" />
          </Form.Item>
        ) : null}
        {by === 'department' ? (
          <Form.Item name="ids" label={t('bulkShare.departments')} rules={[required]}>
            <TreeSelect multiple treeDefaultExpandAll treeData={tree} data-testid="bulk-share-departments" />
          </Form.Item>
        ) : null}
        {by === 'import' ? (
          <Form.Item
            label={t('bulkShare.file')}
            validateStatus={fileError ? 'error' : undefined}
            help={fileError ?? undefined}
          >
            <Space wrap>
              <input
                ref={fileInput}
                type="file"
                accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
                hidden
                onChange={(e) => void chooseFile(e.target.files?.[0])}
                data-testid="bulk-share-file"
              />
              <Button icon={<UploadOutlined />} onClick={() => fileInput.current?.click()}>
                {t('bulkShare.chooseFile')}
              </Button>
              {file ? <Typography.Text>{t('bulkShare.fileChosen', { name: file.name })}</Typography.Text> : null}
              <Button
                type="link"
                icon={<DownloadOutlined />}
                onClick={() => void download('deviceShareTemplate', {})}
                data-testid="bulk-share-template"
              >
                {t('bulkShare.template')}
              </Button>
            </Space>
          </Form.Item>
        ) : null}
        <Form.Item name="action" label={t('bulkShare.action')}>
          <Radio.Group
            options={[
              { value: 'allocate', label: t('bulkShare.allocate') },
              { value: 'recycle', label: t('bulkShare.recycle') },
            ]}
            data-testid="bulk-share-action"
          />
        </Form.Item>
        <Divider titlePlacement="start" plain>
          {t('bulkShare.targets')}
        </Divider>
        <Form.Item name="deptIds" label={t('bulkShare.toDepartments')}>
          <TreeSelect multiple treeDefaultExpandAll treeData={tree} data-testid="bulk-share-to-depts" />
        </Form.Item>
        <Form.Item name="deptOnly" valuePropName="checked">
          <Checkbox>{t('bulkShare.deptOnly')}</Checkbox>
        </Form.Item>
        <Form.Item name="accountIds" label={t('bulkShare.toAccounts')}>
          <Select
            mode="multiple"
            optionFilterProp="label"
            options={(accounts.data ?? []).map((a) => ({ value: a.id, label: a.name }))}
            data-testid="bulk-share-to-accounts"
          />
        </Form.Item>
      </Form>
      {errors.length > 0 ? (
        <Alert
          type="error"
          showIcon
          title={t('bulkShare.errors')}
          data-testid="bulk-share-errors"
          description={
            <Table<RowError>
              size="small"
              rowKey="row"
              pagination={false}
              dataSource={errors}
              scroll={{ y: 200 }}
              columns={[
                { dataIndex: 'row', title: t('bulkShare.row'), width: 70 },
                { dataIndex: 'number', title: t('bulkShare.number'), width: 180 },
                { dataIndex: 'reason', title: t('bulkShare.reason') },
              ]}
            />
          }
        />
      ) : null}
    </Modal>
  );
}
