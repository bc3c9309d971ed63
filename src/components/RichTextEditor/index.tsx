import {
  BoldOutlined,
  ItalicOutlined,
  OrderedListOutlined,
  PictureOutlined,
  RedoOutlined,
  StrikethroughOutlined,
  UnderlineOutlined,
  UndoOutlined,
  UnorderedListOutlined,
} from '@ant-design/icons';
import Image from '@tiptap/extension-image';
import { type Editor, EditorContent, useEditor, useEditorState } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { App, Button, Divider, Space, Tooltip } from 'antd';
import { type ReactNode, useEffect, useRef } from 'react';
import { uploadFile } from '@/api/engine';
import { extensionOf } from '@/utils/image';
import './editor.css';

/**
 * Rich-text editor (spec §2.4, §5, §9) on tiptap: headings, marks, lists, quotes, code, undo/redo and images.
 * Images must be jpeg / jpg / png / svg (else 图片格式错误!) and at most 3 MB (3145728 bytes); they are uploaded to
 * /dev-api/common/upload and inserted by address (上传图片失败 / 图片插入失败 on failure). The frame is 500 px high.
 * The value is the HTML text ('' / undefined when empty).
 */
export const EDITOR_IMAGE_TYPES = ['jpeg', 'jpg', 'png', 'svg'];
export const EDITOR_IMAGE_MAX_BYTES = 3145728;
export const EDITOR_HEIGHT = 500;
export const IMAGE_TYPE_ERROR = '图片格式错误!';

export interface RichTextEditorProps {
  value?: string | null;
  onChange?: (html: string | undefined) => void;
  height?: number;
  readOnly?: boolean;
  placeholder?: string;
  id?: string;
  /** Byte limit of one image (default 3145728). */
  maxImageBytes?: number;
}

/** null when the image may be inserted, else the message to show. */
export function checkEditorImage(file: { name: string; type: string; size: number }, maxBytes = EDITOR_IMAGE_MAX_BYTES): string | null {
  const ext = extensionOf(file.name);
  const mime = file.type.toLowerCase();
  const typeOk = EDITOR_IMAGE_TYPES.includes(ext) || ['image/jpeg', 'image/jpg', 'image/png', 'image/svg+xml'].includes(mime);
  if (!typeOk) return IMAGE_TYPE_ERROR;
  if (file.size > maxBytes) return `上传文件大小不能超过 ${Math.round((maxBytes / 1024 / 1024) * 10) / 10} MB!`;
  return null;
}

function ToolButton({
  title,
  active,
  disabled,
  onClick,
  children,
}: {
  title: string;
  active?: boolean;
  disabled?: boolean;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <Tooltip title={title}>
      <Button size="small" type={active ? 'primary' : 'text'} aria-label={title} aria-pressed={active} disabled={disabled} onClick={onClick}>
        {children}
      </Button>
    </Tooltip>
  );
}

function Toolbar({ editor, onImage }: { editor: Editor; onImage: () => void }) {
  const state = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      bold: e.isActive('bold'),
      italic: e.isActive('italic'),
      underline: e.isActive('underline'),
      strike: e.isActive('strike'),
      h1: e.isActive('heading', { level: 1 }),
      h2: e.isActive('heading', { level: 2 }),
      h3: e.isActive('heading', { level: 3 }),
      bullet: e.isActive('bulletList'),
      ordered: e.isActive('orderedList'),
      quote: e.isActive('blockquote'),
      code: e.isActive('codeBlock'),
      canUndo: e.can().undo(),
      canRedo: e.can().redo(),
    }),
  });
  const chain = () => editor.chain().focus();
  return (
    <Space size={2} wrap className="rich-editor-toolbar">
      <ToolButton title="撤销" disabled={!state.canUndo} onClick={() => chain().undo().run()}>
        <UndoOutlined />
      </ToolButton>
      <ToolButton title="重做" disabled={!state.canRedo} onClick={() => chain().redo().run()}>
        <RedoOutlined />
      </ToolButton>
      <Divider type="vertical" />
      <ToolButton title="标题1" active={state.h1} onClick={() => chain().toggleHeading({ level: 1 }).run()}>
        H1
      </ToolButton>
      <ToolButton title="标题2" active={state.h2} onClick={() => chain().toggleHeading({ level: 2 }).run()}>
        H2
      </ToolButton>
      <ToolButton title="标题3" active={state.h3} onClick={() => chain().toggleHeading({ level: 3 }).run()}>
        H3
      </ToolButton>
      <Divider type="vertical" />
      <ToolButton title="粗体" active={state.bold} onClick={() => chain().toggleBold().run()}>
        <BoldOutlined />
      </ToolButton>
      <ToolButton title="斜体" active={state.italic} onClick={() => chain().toggleItalic().run()}>
        <ItalicOutlined />
      </ToolButton>
      <ToolButton title="下划线" active={state.underline} onClick={() => chain().toggleUnderline().run()}>
        <UnderlineOutlined />
      </ToolButton>
      <ToolButton title="删除线" active={state.strike} onClick={() => chain().toggleStrike().run()}>
        <StrikethroughOutlined />
      </ToolButton>
      <Divider type="vertical" />
      <ToolButton title="无序列表" active={state.bullet} onClick={() => chain().toggleBulletList().run()}>
        <UnorderedListOutlined />
      </ToolButton>
      <ToolButton title="有序列表" active={state.ordered} onClick={() => chain().toggleOrderedList().run()}>
        <OrderedListOutlined />
      </ToolButton>
      <ToolButton title="引用" active={state.quote} onClick={() => chain().toggleBlockquote().run()}>
        ❝
      </ToolButton>
      <ToolButton title="代码块" active={state.code} onClick={() => chain().toggleCodeBlock().run()}>
        {'</>'}
      </ToolButton>
      <Divider type="vertical" />
      <ToolButton title="插入图片" onClick={onImage}>
        <PictureOutlined />
      </ToolButton>
    </Space>
  );
}

export function RichTextEditor({
  value,
  onChange,
  height = EDITOR_HEIGHT,
  readOnly,
  placeholder,
  id,
  maxImageBytes = EDITOR_IMAGE_MAX_BYTES,
}: RichTextEditorProps) {
  const { message } = App.useApp();
  const fileInput = useRef<HTMLInputElement>(null);
  const changeRef = useRef(onChange);
  changeRef.current = onChange;
  const editor = useEditor({
    extensions: [StarterKit, Image.configure({ inline: false, allowBase64: false })],
    content: value ?? '',
    editable: !readOnly,
    editorProps: { attributes: { class: 'rich-editor-content', 'aria-label': placeholder ?? '富文本编辑器' } },
    onUpdate: ({ editor: e }) => changeRef.current?.(e.isEmpty ? undefined : e.getHTML()),
  });

  // Values set from outside (a record loaded, the form reset) replace the content without echoing a change.
  // A page kept alive in a hidden <Activity> (AppMain's tabs) has its effects torn down: useEditor destroys the editor
  // and builds a new one when the tab is shown again, and these effects first run once more with the destroyed one —
  // whose getHTML() throws and blanked the console on a return to 关于我们. The new instance comes with the next render.
  useEffect(() => {
    if (!editor || editor.isDestroyed) return;
    const next = value ?? '';
    if (next !== editor.getHTML() && !(next === '' && editor.isEmpty)) editor.commands.setContent(next, { emitUpdate: false });
  }, [editor, value]);
  useEffect(() => {
    if (editor && !editor.isDestroyed) editor.setEditable(!readOnly);
  }, [editor, readOnly]);

  const insertImage = async (file: File) => {
    const problem = checkEditorImage(file, maxImageBytes);
    if (problem) {
      message.error(problem);
      return;
    }
    let url: string;
    try {
      url = (await uploadFile(file)).url;
    } catch {
      message.error('上传图片失败');
      return;
    }
    try {
      editor?.chain().focus().setImage({ src: url }).run();
    } catch {
      message.error('图片插入失败');
    }
  };

  return (
    <div id={id} className={`rich-editor${readOnly ? ' rich-editor-readonly' : ''}`}>
      {editor && !readOnly && <Toolbar editor={editor} onImage={() => fileInput.current?.click()} />}
      <div className="rich-editor-frame" style={{ height }}>
        <EditorContent editor={editor} />
      </div>
      <input
        ref={fileInput}
        type="file"
        accept=".jpeg,.jpg,.png,.svg"
        hidden
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (file) void insertImage(file);
        }}
      />
    </div>
  );
}
