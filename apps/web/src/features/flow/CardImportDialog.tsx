import { DownloadOutlined, InboxOutlined, UploadOutlined } from '@ant-design/icons';
import { CARD_IMPORT_MAX_BYTES, CARD_IMPORT_MAX_ROWS, type cardImportErrorSchema } from '@marquee/protocol';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Modal, Space, Table, Typography, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { call, download } from '../../api/client';
import { domainKey } from '../../api/queries';
import { dialogFooter } from '../../components/dialogFooter';
import { NotForMonitor } from '../../components/MonitorGuard';
import { fileToBase64 } from '../deviceIo/DeviceImportDialog';

type CardImportError = z.infer<typeof cardImportErrorSchema>;

const MAX_KB = Math.round(CARD_IMPORT_MAX_BYTES / 1024);

/**
 * The card Excel import (the device import's way): download the template (in the current
 * language), pick the filled sheet, import. The server checks every row (the ICCID rule, the
 * operator, duplicates in the sheet and against registered cards); with any error nothing is
 * written and the dialog lists each (row, column, message), so the sheet is fixed and picked again.
 */
export function CardImportDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('flow');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [tooBig, setTooBig] = useState(false);
  const [errors, setErrors] = useState<CardImportError[] | null>(null);

  const template = useMutation({ mutationFn: () => download('flowCardImportTemplate', {}) });
  const importing = useMutation({
    mutationFn: async (picked: File) =>
      call('flowCardImport', { fileName: picked.name, file: await fileToBase64(picked) }),
    onSuccess: (answer) => {
      if (answer.errors.length > 0) {
        setErrors(answer.errors);
        return;
      }
      void message.success(t('import.done', { count: answer.imported }));
      void queryClient.invalidateQueries({ queryKey: domainKey('flow') });
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
  const clear = () => {
    setFile(null);
    setErrors(null);
    setTooBig(false);
  };

  return (
    <Modal
      open={open}
      title={t('import.title')}
      onCancel={close}
      maskClosable={false}
      destroyOnHidden
      width={720}
      footer={dialogFooter(
        { key: 'cancel', label: t('dialog.cancel'), onClick: close, testId: 'flow-import-cancel' },
        {
          key: 'import',
          label: t('import.submit'),
          icon: <UploadOutlined />,
          disabled: !file || tooBig,
          loading: importing.isPending,
          onClick: () => file && importing.mutate(file),
          testId: 'flow-import-submit',
        },
      )}
    >
      <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
        <Typography.Paragraph style={{ marginBottom: 0 }}>
          {t('import.intro', { max: CARD_IMPORT_MAX_ROWS })}
        </Typography.Paragraph>
        <Button
          icon={<DownloadOutlined />}
          onClick={() => template.mutate()}
          loading={template.isPending}
          data-testid="flow-import-template"
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
            setTooBig(picked.size > CARD_IMPORT_MAX_BYTES);
            return false;
          }}
          onRemove={clear}
          data-testid="flow-import-file"
        >
          <p className="ant-upload-drag-icon">
            <InboxOutlined />
          </p>
          <p className="ant-upload-text">{t('import.pick')}</p>
          <p className="ant-upload-hint">{t('import.pickHint', { size: MAX_KB })}</p>
        </Upload.Dragger>
        {tooBig ? <Alert type="error" showIcon title={t('import.tooBig', { size: MAX_KB })} /> : null}
        {errors ? (
          <div data-testid="flow-import-errors">
            <Alert
              type="error"
              showIcon
              style={{ marginBottom: 8 }}
              title={t('import.rejected', { count: errors.length })}
            />
            <Table<CardImportError>
              size="small"
              rowKey={(e) => `${e.row}:${e.column ?? ''}:${e.message}`}
              dataSource={errors}
              pagination={errors.length > 10 ? { pageSize: 10, showSizeChanger: false } : false}
              columns={[
                { key: 'row', title: t('import.row'), dataIndex: 'row', width: 80 },
                {
                  key: 'column',
                  title: t('import.column'),
                  width: 140,
                  render: (_v, e) => (e.column ? t(`import.columnName.${e.column}`) : t('import.columnName.sheet')),
                },
                { key: 'message', title: t('import.message'), dataIndex: 'message' },
              ]}
            />
          </div>
        ) : null}
      </Space>
    </Modal>
  );
}

/** The toolbar's import button with its dialog (hidden from monitor accounts). */
export function CardImportButton() {
  const { t } = useTranslation('flow');
  const [open, setOpen] = useState(false);
  return (
    <NotForMonitor>
      <Button icon={<UploadOutlined />} onClick={() => setOpen(true)} data-testid="flow-import">
        {t('import.button')}
      </Button>
      <CardImportDialog open={open} onClose={() => setOpen(false)} />
    </NotForMonitor>
  );
}
