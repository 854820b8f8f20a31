import {
  BoldOutlined,
  ClearOutlined,
  ItalicOutlined,
  LinkOutlined,
  OrderedListOutlined,
  PictureOutlined,
  UnderlineOutlined,
  UnorderedListOutlined,
} from '@ant-design/icons';
import { App, Button, Input, Modal, Space, Tooltip } from 'antd';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { imageHtml, imageProblem, uploadHelpImage } from './helpLogic';

/**
 * A small rich-text editor for help documents (the console has no other: notices are plain).
 * A contentEditable area with the browser's editing commands (bold, italic, underline,
 * headings, lists, links, pictures). What it produces is only a proposal: the server
 * sanitises every body (modules/notice/sanitize.ts) before storing it. Pictures go straight
 * to storage (help.imageApply) and are named by id in the HTML.
 */
export function RichTextEditor({
  value,
  onChange,
  testId,
  label,
}: {
  value: string;
  onChange: (html: string) => void;
  testId: string;
  label: string;
}) {
  const { t, i18n } = useTranslation('help');
  const { message } = App.useApp();
  const area = useRef<HTMLDivElement>(null);
  const file = useRef<HTMLInputElement>(null);
  const saved = useRef<Range | null>(null);
  const [uploading, setUploading] = useState(false);
  const [linking, setLinking] = useState(false);
  const [href, setHref] = useState('https://');

  // The area owns its HTML while typing; a new value from outside (another document) replaces it.
  useEffect(() => {
    if (area.current && area.current.innerHTML !== value) area.current.innerHTML = value;
  }, [value]);

  const emit = () => onChange(area.current?.innerHTML ?? '');
  const remember = () => {
    const selection = window.getSelection();
    if (selection && selection.rangeCount > 0 && area.current?.contains(selection.anchorNode)) {
      saved.current = selection.getRangeAt(0);
    }
  };
  const restore = () => {
    area.current?.focus();
    const selection = window.getSelection();
    if (saved.current && selection) {
      selection.removeAllRanges();
      selection.addRange(saved.current);
    }
  };
  const run = (command: string, arg?: string) => {
    restore();
    document.execCommand(command, false, arg);
    emit();
  };

  const tool = (key: string, icon: ReactNode, onClick: () => void, text?: string) => (
    <Tooltip title={t(`editor.${key}`)} key={key}>
      <Button
        size="small"
        type="text"
        icon={icon}
        aria-label={t(`editor.${key}`)}
        onMouseDown={(e) => e.preventDefault()}
        onClick={onClick}
        data-testid={`${testId}-${key}`}
      >
        {text}
      </Button>
    </Tooltip>
  );

  const insertImage = async (picked: File) => {
    const problem = imageProblem(picked);
    if (problem) {
      void message.error(t(`editor.image.${problem}`));
      return;
    }
    setUploading(true);
    try {
      const image = await uploadHelpImage(picked, i18n.language);
      run('insertHTML', imageHtml(image, picked.name));
    } catch (error) {
      if (error instanceof Error && error.message) void message.error(error.message);
    } finally {
      setUploading(false);
    }
  };

  return (
    <div className="mq-help-editor">
      <Space size={2} wrap className="mq-help-editor-toolbar" role="toolbar" aria-label={label}>
        {tool('bold', <BoldOutlined />, () => run('bold'))}
        {tool('italic', <ItalicOutlined />, () => run('italic'))}
        {tool('underline', <UnderlineOutlined />, () => run('underline'))}
        {tool('h2', null, () => run('formatBlock', 'h2'), 'H2')}
        {tool('h3', null, () => run('formatBlock', 'h3'), 'H3')}
        {tool('paragraph', null, () => run('formatBlock', 'p'), '¶')}
        {tool('bullets', <UnorderedListOutlined />, () => run('insertUnorderedList'))}
        {tool('numbers', <OrderedListOutlined />, () => run('insertOrderedList'))}
        {tool('link', <LinkOutlined />, () => {
          remember();
          setHref('https://');
          setLinking(true);
        })}
        {tool('image', <PictureOutlined spin={uploading} />, () => {
          remember();
          file.current?.click();
        })}
        {tool('clear', <ClearOutlined />, () => run('removeFormat'))}
      </Space>
      <input
        ref={file}
        type="file"
        style={{ display: 'none' }}
        accept="image/png,image/jpeg,image/webp,image/gif"
        data-testid={`${testId}-file`}
        onChange={(e) => {
          const picked = e.target.files?.[0];
          e.target.value = '';
          if (picked) void insertImage(picked);
        }}
      />
      <div
        ref={area}
        className="mq-help-editor-area mq-help-body"
        contentEditable
        suppressContentEditableWarning
        role="textbox"
        aria-multiline="true"
        aria-label={label}
        tabIndex={0}
        data-testid={testId}
        onInput={emit}
        onBlur={() => {
          remember();
          emit();
        }}
        onKeyUp={remember}
        onMouseUp={remember}
      />
      <Modal
        open={linking}
        title={t('editor.link')}
        okText={t('editor.linkOk')}
        onCancel={() => setLinking(false)}
        okButtonProps={{ disabled: !/^https?:\/\/\S+\.\S+/.test(href) }}
        onOk={() => {
          setLinking(false);
          run('createLink', href.trim());
        }}
        destroyOnHidden
      >
        <Input
          value={href}
          onChange={(e) => setHref(e.target.value)}
          placeholder="https://"
          aria-label={t('editor.linkAddress')}
          data-testid={`${testId}-href`}
        />
      </Modal>
    </div>
  );
}
