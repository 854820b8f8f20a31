import { CloudUploadOutlined } from '@ant-design/icons';
import { formatSize, type MaterialWarning } from '@marquee/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Form, List, Modal, Space, Tag, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { domainKey } from '../../api/queries';
import { dialogFooter } from '../../components/dialogFooter';
import { UploadQueue } from '../../components/upload';
import { ACCEPT, type CheckError, checkFile, type FileCheck, WARNING_VALUES } from './checks';
import { FolderSelect } from './FolderSelect';
import { readMediaFacts } from './mediaFacts';
import type { AddToFolderProps } from './types';
import { type MaterialUploaded, useMaterialUploads } from './uploads';

interface Picked {
  key: string;
  file: File;
  check: FileCheck;
}

/** A refusal's message in the user's language (sizes in Bytes/KB/MB/GB/TB). */
export function errorText(t: TFunction, m: CheckError): string {
  return m.key === 'tooLarge' ? t('check.tooLarge', { max: formatSize(m.max) }) : t('check.formatError');
}

/** A warning's message in the user's language, naming the limit it is about. */
export function warningText(t: TFunction, w: MaterialWarning): string {
  return t(`warning.${w}`, {
    image: formatSize(WARNING_VALUES.imageBytes),
    video: formatSize(WARNING_VALUES.videoBytes),
    suggested: formatSize(WARNING_VALUES.videoSuggestedBytes),
    seconds: WARNING_VALUES.videoSeconds,
    width: WARNING_VALUES.width,
    height: WARNING_VALUES.height,
  });
}

let pickCounter = 0;

/**
 * Upload to the library (spec sections 5, 7 and 8): the folder (chosen first), then several
 * files; each is checked in the browser (kind, size limit: refused; large image, resolution,
 * large video, the 15 s suggestion: warned), then uploaded straight to storage with a signed
 * policy (upload apply -> POST with progress, cancellable -> verify). The server's answer
 * says 'duplicate material' or 'file format error' per file.
 */
export function UploadDialog({ open, folderId, onClose }: AddToFolderProps) {
  const { t } = useTranslation(['material', 'common']);
  const queryClient = useQueryClient();
  const [folder, setFolder] = useState<string | undefined>(folderId);
  const [picked, setPicked] = useState<Picked[]>([]);
  const [reading, setReading] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const uploads = useMaterialUploads({
    onSettled: () => void queryClient.invalidateQueries({ queryKey: domainKey('materials') }),
  });

  const { clearFinished } = uploads.queue;
  useEffect(() => {
    if (open) {
      setFolder(folderId);
      setPicked([]);
      clearFinished();
    }
  }, [open, folderId, clearFinished]);

  const choose = async (files: FileList | null) => {
    if (!files || files.length === 0) return;
    setReading(true);
    try {
      const next = await Promise.all(
        Array.from(files, async (file) => {
          const facts = await readMediaFacts(file, checkFile(file).type);
          pickCounter += 1;
          return { key: `pick-${pickCounter}`, file, check: checkFile(file, facts) };
        }),
      );
      setPicked((current) => [...current, ...next]);
    } finally {
      setReading(false);
      if (input.current) input.current.value = '';
    }
  };

  const ready = picked.filter((p) => !p.check.error);
  const start = () => {
    if (!folder) return;
    uploads.add(
      ready.map((p) => p.file),
      folder,
    );
    setPicked([]);
  };

  return (
    <Modal
      open={open}
      title={t('upload.title')}
      onCancel={onClose}
      width={720}
      maskClosable={false}
      footer={dialogFooter(
        { key: 'close', label: t('action.close'), onClick: onClose, testId: 'upload-close' },
        {
          key: 'start',
          label: t('upload.start', { count: ready.length }),
          icon: <CloudUploadOutlined />,
          disabled: !folder || ready.length === 0 || reading,
          onClick: start,
          testId: 'upload-start',
        },
      )}
    >
      <div data-testid="upload-dialog">
        <Form layout="vertical">
          <Form.Item
            label={t('field.folder')}
            required
            validateStatus={folder ? undefined : 'error'}
            help={folder ? undefined : t('upload.chooseFolder')}
          >
            <FolderSelect
              value={folder}
              onChange={(v) => setFolder(v)}
              placeholder={t('folder.choose')}
              testId="upload-folder"
            />
          </Form.Item>
          <Form.Item label={t('upload.files')} extra={t('upload.limits')}>
            <Space>
              <Button
                disabled={!folder}
                loading={reading}
                onClick={() => input.current?.click()}
                data-testid="upload-pick"
              >
                {t('upload.pick')}
              </Button>
              <input
                ref={input}
                type="file"
                multiple
                accept={ACCEPT}
                style={{ display: 'none' }}
                disabled={!folder}
                onChange={(e) => void choose(e.target.files)}
                data-testid="upload-input"
              />
            </Space>
          </Form.Item>
        </Form>
        {picked.length > 0 ? (
          <List
            size="small"
            bordered
            className="mq-upload-picked"
            dataSource={picked}
            renderItem={(p) => (
              <List.Item
                data-testid={`upload-picked-${p.file.name}`}
                actions={[
                  <Button
                    key="remove"
                    type="link"
                    size="small"
                    onClick={() => setPicked((c) => c.filter((x) => x.key !== p.key))}
                  >
                    {t('action.remove')}
                  </Button>,
                ]}
              >
                <Space direction="vertical" size={2} style={{ width: '100%' }}>
                  <Space>
                    <Typography.Text strong>{p.file.name}</Typography.Text>
                    <Typography.Text type="secondary">{formatSize(p.file.size)}</Typography.Text>
                    {p.check.type ? <Tag>{t(`type.${p.check.type}`)}</Tag> : null}
                  </Space>
                  {p.check.error ? (
                    <Typography.Text type="danger" data-testid="upload-check-error">
                      {errorText(t, p.check.error)}
                    </Typography.Text>
                  ) : null}
                  {p.check.warnings.map((w) => (
                    <Typography.Text key={w} type="warning" data-testid={`upload-warning-${w}`}>
                      {warningText(t, w)}
                    </Typography.Text>
                  ))}
                </Space>
              </List.Item>
            )}
          />
        ) : null}
        {uploads.queue.items.length > 0 ? (
          <div className="mq-upload-progress">
            <UploadQueue
              queue={uploads.queue}
              below={(item) => (item.result ? <OutcomeText outcome={item.result} /> : null)}
            />
          </div>
        ) : null}
      </div>
    </Modal>
  );
}

/** What the library said of a stored file: a duplicate, or warnings (a refusal is the queue's error). */
function OutcomeText({ outcome }: { outcome: MaterialUploaded }) {
  const { t } = useTranslation('material');
  const others = outcome.warnings.filter((w) => w !== 'duplicate');
  // The queue's row already says 'uploaded'; this adds what the library said of the file.
  return (
    <div className="mq-upload-outcome" data-testid="upload-done">
      {outcome.duplicate ? (
        <Alert type="warning" showIcon message={t('warning.duplicate')} data-testid="upload-duplicate" />
      ) : null}
      {others.map((w) => (
        <Alert key={w} type="warning" showIcon message={warningText(t, w)} data-testid={`upload-warning-${w}`} />
      ))}
    </div>
  );
}
