import { DownloadOutlined, InboxOutlined, UploadOutlined } from '@ant-design/icons';
import { DEVICE_IMPORT_MAX_BYTES, DEVICE_IMPORT_MAX_ROWS, type DeviceImportError } from '@marquee/protocol';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Modal, Space, Table, Typography, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call, download } from '../../api/client';
import { domainKey } from '../../api/queries';
import { dialogFooter } from '../../components/dialogFooter';
import { NotForMonitor } from '../../components/MonitorGuard';

/** A file's bytes as base64 (without the data-URL prefix). */
export function fileToBase64(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const url = String(reader.result ?? '');
      resolve(url.slice(url.indexOf(',') + 1));
    };
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

export interface DeviceImportDialogProps {
  open: boolean;
  onClose: () => void;
  /** After a successful import (the device list's queries are invalidated already). */
  onImported?: (count: number) => void;
}

/**
 * The device Excel import (spec section 7): download the template (in the current
 * language), pick the filled sheet, import. The server checks every row; when any row is
 * invalid nothing is written and the dialog lists each error (row, column, message), so the
 * sheet can be fixed and picked again. Valid sheets pre-register their devices (activating,
 * with their number) for their players to pair with later.
 */
export function DeviceImportDialog({ open, onClose, onImported }: DeviceImportDialogProps) {
  const { t } = useTranslation('deviceIo');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [tooBig, setTooBig] = useState(false);
  const [errors, setErrors] = useState<DeviceImportError[] | null>(null);

  const template = useMutation({ mutationFn: () => download('deviceImportTemplate', {}) });
  const importing = useMutation({
    mutationFn: async (picked: File) =>
      call('deviceImport', { fileName: picked.name, file: await fileToBase64(picked) }),
    onSuccess: (answer) => {
      if (answer.errors.length > 0) {
        setErrors(answer.errors);
        return;
      }
      void message.success(t('import.done', { count: answer.imported }));
      void queryClient.invalidateQueries({ queryKey: domainKey('devices') });
      onImported?.(answer.imported);
      close();
    },
  });

  const close = () => {
    setFile(null);
    setErrors(null);
    setTooBig(false);
    importing.reset();
    onClose();
  };

  const columnLabel = (column: DeviceImportError['column']) => (column ? t(`column.${column}`) : t('column.sheet'));

  return (
    <Modal
      open={open}
      title={t('import.title')}
      onCancel={close}
      maskClosable={false}
      destroyOnHidden
      width={720}
      footer={dialogFooter(
        { key: 'cancel', label: t('import.cancel'), onClick: close, testId: 'device-import-cancel' },
        {
          key: 'import',
          label: t('import.submit'),
          icon: <UploadOutlined />,
          disabled: !file || tooBig,
          loading: importing.isPending,
          onClick: () => file && importing.mutate(file),
          testId: 'device-import-submit',
        },
      )}
    >
      <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
        <Typography.Paragraph style={{ marginBottom: 0 }}>
          {t('import.intro', { max: DEVICE_IMPORT_MAX_ROWS })}
        </Typography.Paragraph>
        <Button
          icon={<DownloadOutlined />}
          onClick={() => template.mutate()}
          loading={template.isPending}
          data-testid="device-import-template"
        >
          {t('import.template')}
        </Button>
        <Upload.Dragger
          accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
          multiple={false}
          maxCount={1}
          fileList={file ? [{ uid: 'sheet', name: file.name, status: 'done' }] : []}
          beforeUpload={(picked) => {
            setFile(picked);
            setErrors(null);
            setTooBig(picked.size > DEVICE_IMPORT_MAX_BYTES);
            return false;
          }}
          onRemove={() => {
            setFile(null);
            setErrors(null);
            setTooBig(false);
          }}
          data-testid="device-import-file"
        >
          <p className="ant-upload-drag-icon">
            <InboxOutlined />
          </p>
          <p className="ant-upload-text">{t('import.pick')}</p>
          <p className="ant-upload-hint">
            {t('import.pickHint', { size: Math.round(DEVICE_IMPORT_MAX_BYTES / 1024) })}
          </p>
        </Upload.Dragger>
        {tooBig ? (
          <Alert
            type="error"
            showIcon
            title={t('import.tooBig', { size: Math.round(DEVICE_IMPORT_MAX_BYTES / 1024) })}
          />
        ) : null}
        {errors ? (
          <div data-testid="device-import-errors">
            <Alert
              type="error"
              showIcon
              style={{ marginBottom: 8 }}
              title={t('import.rejected', { count: errors.length })}
            />
            <Table<DeviceImportError>
              size="small"
              rowKey={(e) => `${e.row}:${e.column ?? ''}:${e.message}`}
              dataSource={errors}
              pagination={errors.length > 10 ? { pageSize: 10, showSizeChanger: false } : false}
              columns={[
                { key: 'row', title: t('error.row'), dataIndex: 'row', width: 80 },
                { key: 'column', title: t('error.column'), width: 140, render: (_v, e) => columnLabel(e.column) },
                { key: 'message', title: t('error.message'), dataIndex: 'message' },
              ]}
            />
          </div>
        ) : null}
      </Space>
    </Modal>
  );
}

/**
 * The import button for the /device list page's toolbar, with its dialog:
 * `<DeviceImportButton onImported={() => refetch()} />`.
 */
export function DeviceImportButton({ onImported }: { onImported?: (count: number) => void }) {
  const { t } = useTranslation('deviceIo');
  const [open, setOpen] = useState(false);
  return (
    <NotForMonitor>
      <Button icon={<UploadOutlined />} onClick={() => setOpen(true)} data-testid="device-import">
        {t('import.button')}
      </Button>
      <DeviceImportDialog open={open} onClose={() => setOpen(false)} onImported={onImported} />
    </NotForMonitor>
  );
}
