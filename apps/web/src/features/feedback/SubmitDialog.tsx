import { PlusOutlined } from '@ant-design/icons';
import { FEEDBACK_CATEGORIES, FEEDBACK_MAX_CHARS, FEEDBACK_MAX_SHOTS, type FeedbackCategory } from '@marquee/protocol';
import { Alert, Button, Form, Input, Modal, Progress, Select, Space, Typography } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCallMutation } from '../../api/queries';
import { feedbackCount, shotProblem, uploadShot } from './feedbackUpload';

interface Shot {
  uid: string;
  name: string;
  percent: number;
  shotId?: string;
  error?: string;
}

/** The submit dialog: a category, the text with its 500-character counter, screenshots with their progress. */
export function SubmitDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t, i18n } = useTranslation(['feedback', 'common']);
  const [category, setCategory] = useState<FeedbackCategory>('problem');
  const [content, setContent] = useState('');
  const [shots, setShots] = useState<Shot[]>([]);
  const [touched, setTouched] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const submit = useCallMutation('feedbackSubmit', { success: t('toast.submitted') });
  const count = feedbackCount(content);
  const uploading = shots.some((s) => !s.shotId && !s.error);

  const reset = () => {
    setCategory('problem');
    setContent('');
    setShots([]);
    setTouched(false);
  };

  const patch = (uid: string, change: Partial<Shot>) =>
    setShots((list) => list.map((s) => (s.uid === uid ? { ...s, ...change } : s)));

  const addFiles = (files: FileList | null) => {
    for (const file of Array.from(files ?? [])) {
      const uid = `${Date.now()}-${Math.random()}`;
      const problem = shotProblem(file);
      setShots((list) => {
        if (list.length >= FEEDBACK_MAX_SHOTS) return list;
        return [...list, { uid, name: file.name, percent: 0, error: problem ? t(`shot.${problem}`) : undefined }];
      });
      if (problem) continue;
      uploadShot(file, i18n.language, (percent) => patch(uid, { percent }))
        .then((shotId) => patch(uid, { shotId, percent: 100 }))
        .catch((e: Error) => patch(uid, { error: e.message }));
    }
  };

  const send = async () => {
    setTouched(true);
    if (count.empty || count.over || uploading) return;
    await submit.mutateAsync({
      category,
      content: content.trim(),
      shotIds: shots.flatMap((s) => (s.shotId ? [s.shotId] : [])),
    });
    reset();
    onClose();
  };

  return (
    <Modal
      open={open}
      title={t('submit.title')}
      okText={t('submit.ok')}
      cancelText={t('action.cancel', { ns: 'common' })}
      onOk={send}
      okButtonProps={{
        disabled: uploading || count.over,
        loading: submit.isPending,
        'data-testid': 'feedback-submit-ok',
      }}
      onCancel={() => {
        reset();
        onClose();
      }}
      destroyOnHidden
      data-testid="feedback-submit-dialog"
    >
      <Form layout="vertical">
        <Form.Item label={t('field.category')} required>
          <Select
            value={category}
            onChange={setCategory}
            options={FEEDBACK_CATEGORIES.map((c) => ({ value: c, label: t(`category.${c}`) }))}
            data-testid="feedback-category"
          />
        </Form.Item>
        <Form.Item
          label={t('field.content')}
          required
          validateStatus={(touched && count.empty) || count.over ? 'error' : undefined}
          help={
            touched && count.empty
              ? t('submit.required')
              : count.over
                ? t('submit.tooLong', { max: FEEDBACK_MAX_CHARS })
                : undefined
          }
        >
          <Input.TextArea
            rows={6}
            value={content}
            onChange={(e) => setContent(e.target.value)}
            placeholder={t('submit.placeholder')}
            data-testid="feedback-content"
          />
        </Form.Item>
        <Typography.Text type={count.over ? 'danger' : 'secondary'} data-testid="feedback-counter">
          {count.used} / {FEEDBACK_MAX_CHARS}
        </Typography.Text>
        <Form.Item label={t('field.shots', { max: FEEDBACK_MAX_SHOTS })} style={{ marginTop: 12 }}>
          <Space direction="vertical" style={{ width: '100%' }}>
            {shots.map((s) => (
              <div key={s.uid} data-testid="feedback-shot-item">
                <Typography.Text ellipsis style={{ maxWidth: 320 }}>
                  {s.name}
                </Typography.Text>
                {s.error ? (
                  <Alert type="error" showIcon message={s.error} />
                ) : (
                  <Progress percent={s.percent} size="small" status={s.shotId ? 'success' : 'active'} />
                )}
              </div>
            ))}
            <input
              ref={input}
              type="file"
              accept="image/png,image/jpeg,image/webp"
              multiple
              style={{ display: 'none' }}
              onChange={(e) => {
                addFiles(e.target.files);
                e.target.value = '';
              }}
              data-testid="feedback-shot-input"
            />
            <Button
              icon={<PlusOutlined />}
              disabled={shots.length >= FEEDBACK_MAX_SHOTS}
              onClick={() => input.current?.click()}
              data-testid="feedback-shot-add"
            >
              {t('submit.addShot')}
            </Button>
            <Typography.Text type="secondary">{t('submit.shotHint')}</Typography.Text>
          </Space>
        </Form.Item>
      </Form>
    </Modal>
  );
}
