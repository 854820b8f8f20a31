import type { PosterDocument, PosterNode } from '@marquee/protocol';
import type Konva from 'konva';
import QRCode from 'qrcode';
import { type Ref, useEffect, useMemo, useRef, useState } from 'react';
import { Ellipse, Group, Image as KImage, Layer, Line, Rect, Stage, Text, Transformer } from 'react-konva';
import { sortedNodes } from './editorState';
import { type Guide, snapBox } from './snapping';

/** Loads an image for the canvas (anonymous CORS, so the export is not tainted when the host allows it). */
function useImageElement(src: string | undefined): HTMLImageElement | null {
  const [img, setImg] = useState<HTMLImageElement | null>(null);
  useEffect(() => {
    if (!src) {
      setImg(null);
      return;
    }
    const el = new window.Image();
    if (!src.startsWith('data:')) el.crossOrigin = 'anonymous';
    el.onload = () => setImg(el);
    el.onerror = () => setImg(null);
    el.src = src;
    return () => {
      el.onload = null;
      el.onerror = null;
    };
  }, [src]);
  return img;
}

/** A QR code of `text` as an image (a data URL drawn by the `qrcode` library). */
function useQrImage(text: string, dark: string, light: string): HTMLImageElement | null {
  const [url, setUrl] = useState<string>();
  useEffect(() => {
    let live = true;
    if (!text) {
      setUrl(undefined);
      return;
    }
    QRCode.toDataURL(text, { margin: 1, width: 512, errorCorrectionLevel: 'M', color: { dark, light } })
      .then((u) => live && setUrl(u))
      .catch(() => live && setUrl(undefined));
    return () => {
      live = false;
    };
  }, [text, dark, light]);
  return useImageElement(url);
}

/** Where an image is drawn in a box for a fit mode (`crop` for cover). */
function fitImage(img: HTMLImageElement, w: number, h: number, fit: 'cover' | 'contain' | 'fill') {
  const iw = img.naturalWidth || 1;
  const ih = img.naturalHeight || 1;
  if (fit === 'fill') return { x: 0, y: 0, width: w, height: h };
  if (fit === 'contain') {
    const s = Math.min(w / iw, h / ih);
    return { x: (w - iw * s) / 2, y: (h - ih * s) / 2, width: iw * s, height: ih * s };
  }
  const s = Math.max(w / iw, h / ih);
  const cw = w / s;
  const ch = h / s;
  return { x: 0, y: 0, width: w, height: h, crop: { x: (iw - cw) / 2, y: (ih - ch) / 2, width: cw, height: ch } };
}

function ImageShape({ node, placeholder }: { node: PosterNode; placeholder: string }) {
  const img = useImageElement(node.src || undefined);
  if (!img) {
    return (
      <>
        <Rect width={node.w} height={node.h} fill="#f0f0f0" stroke="#bfbfbf" dash={[8, 6]} strokeWidth={2} />
        <Text
          width={node.w}
          height={node.h}
          text={placeholder}
          align="center"
          verticalAlign="middle"
          fill="#8c8c8c"
          fontSize={Math.max(12, Math.min(node.w, node.h) / 8)}
        />
      </>
    );
  }
  return (
    <KImage
      image={img}
      opacity={node.style.opacity ?? 1}
      {...fitImage(img, node.w, node.h, node.style.fit ?? 'cover')}
    />
  );
}

function QrShape({ node }: { node: PosterNode }) {
  const img = useQrImage(node.text ?? '', node.style.fill ?? '#000000', node.style.background ?? '#ffffff');
  const side = Math.min(node.w, node.h);
  if (!img) return <Rect width={node.w} height={node.h} fill="#fafafa" stroke="#d9d9d9" dash={[4, 4]} />;
  return <KImage image={img} x={(node.w - side) / 2} y={(node.h - side) / 2} width={side} height={side} />;
}

/** The shape of a node drawn in its own box (0,0)-(w,h). */
function NodeShape({ node, imagePlaceholder }: { node: PosterNode; imagePlaceholder: string }) {
  const s = node.style;
  const opacity = s.opacity ?? 1;
  switch (node.type) {
    case 'text':
      return (
        <Text
          width={node.w}
          height={node.h}
          text={node.text ?? ''}
          fontSize={s.fontSize ?? 32}
          fontFamily={s.fontFamily || 'sans-serif'}
          fontStyle={s.fontStyle ?? 'normal'}
          align={s.align ?? 'left'}
          lineHeight={s.lineHeight ?? 1.2}
          fill={s.fill ?? '#000000'}
          opacity={opacity}
          wrap="word"
        />
      );
    case 'rect':
      return (
        <Rect
          width={node.w}
          height={node.h}
          fill={s.fill}
          stroke={s.stroke}
          strokeWidth={s.stroke ? (s.strokeWidth ?? 1) : 0}
          cornerRadius={s.cornerRadius ?? 0}
          opacity={opacity}
        />
      );
    case 'ellipse':
      return (
        <Ellipse
          x={node.w / 2}
          y={node.h / 2}
          radiusX={node.w / 2}
          radiusY={node.h / 2}
          fill={s.fill}
          stroke={s.stroke}
          strokeWidth={s.stroke ? (s.strokeWidth ?? 1) : 0}
          opacity={opacity}
        />
      );
    case 'line':
      return (
        <Line
          points={[0, 0, node.w, node.h]}
          stroke={s.stroke ?? '#000000'}
          strokeWidth={s.strokeWidth ?? 2}
          hitStrokeWidth={Math.max(16, s.strokeWidth ?? 2)}
          lineCap="round"
          opacity={opacity}
        />
      );
    case 'image':
      return <ImageShape node={node} placeholder={imagePlaceholder} />;
    case 'qr':
      return <QrShape node={node} />;
  }
}

export interface PosterCanvasProps {
  doc: PosterDocument;
  width: number;
  height: number;
  zoom: number;
  /** `edit`: select, drag, transform; `view`: drawing only (fill mode, export). */
  mode: 'edit' | 'view';
  selectedId?: string | null;
  onSelect?: (id: string | null) => void;
  onChange?: (id: string, patch: Partial<PosterNode>) => void;
  stageRef?: Ref<Konva.Stage>;
  /** The text of an image without a picture yet. */
  imagePlaceholder: string;
}

/** Guides are drawn this many screen pixels wide and snap within this many. */
const SNAP_SCREEN_PX = 6;

/**
 * The poster drawn with Konva at `zoom` (the stage is the poster's size times the zoom; the
 * document is in poster pixels). In edit mode nodes can be selected, dragged with snapping to
 * the poster and the other nodes (guides shown), resized and rotated with a Transformer.
 */
export function PosterCanvas({
  doc,
  width,
  height,
  zoom,
  mode,
  selectedId,
  onSelect,
  onChange,
  stageRef,
  imagePlaceholder,
}: PosterCanvasProps) {
  const nodes = useMemo(() => sortedNodes(doc).filter((n) => !n.hidden), [doc]);
  const trRef = useRef<Konva.Transformer>(null);
  const layerRef = useRef<Konva.Layer>(null);
  const [guides, setGuides] = useState<Guide[]>([]);
  const editing = mode === 'edit';
  const selected = nodes.find((n) => n.id === selectedId);

  useEffect(() => {
    const tr = trRef.current;
    if (!tr) return;
    const target = selected && !selected.locked ? layerRef.current?.findOne(`#${selected.id}`) : undefined;
    tr.nodes(target ? [target] : []);
    tr.getLayer()?.batchDraw();
  }, [selected]);

  const dragMove = (node: PosterNode, e: Konva.KonvaEventObject<DragEvent>) => {
    const g = e.target;
    const others = nodes.filter((n) => n.id !== node.id);
    const r = snapBox({ x: g.x(), y: g.y(), w: node.w, h: node.h }, others, { width, height }, SNAP_SCREEN_PX / zoom);
    g.position({ x: r.x, y: r.y });
    setGuides(r.guides);
  };

  return (
    <Stage
      ref={stageRef}
      width={Math.round(width * zoom)}
      height={Math.round(height * zoom)}
      scaleX={zoom}
      scaleY={zoom}
      onMouseDown={(e) => {
        if (editing && e.target === e.target.getStage()) onSelect?.(null);
      }}
    >
      <Layer ref={layerRef}>
        <Rect
          name="mq-background"
          width={width}
          height={height}
          fill={doc.background}
          onMouseDown={() => editing && onSelect?.(null)}
        />
        {nodes.map((node) => (
          <Group
            key={node.id}
            id={node.id}
            x={node.x}
            y={node.y}
            rotation={node.rotation}
            draggable={editing && !node.locked}
            listening={editing}
            onMouseDown={() => editing && onSelect?.(node.id)}
            onTap={() => editing && onSelect?.(node.id)}
            onDragStart={() => onSelect?.(node.id)}
            onDragMove={(e) => dragMove(node, e)}
            onDragEnd={(e) => {
              setGuides([]);
              onChange?.(node.id, { x: Math.round(e.target.x()), y: Math.round(e.target.y()) });
            }}
            onTransformEnd={(e) => {
              const g = e.target;
              const sx = g.scaleX();
              const sy = g.scaleY();
              g.scale({ x: 1, y: 1 });
              onChange?.(node.id, {
                x: Math.round(g.x()),
                y: Math.round(g.y()),
                rotation: Math.round(g.rotation() * 10) / 10,
                w: Math.max(1, Math.round(node.w * sx)),
                h: node.type === 'line' ? Math.round(node.h * sy) : Math.max(1, Math.round(node.h * sy)),
              });
            }}
          >
            <NodeShape node={node} imagePlaceholder={imagePlaceholder} />
          </Group>
        ))}
      </Layer>
      {editing && (
        <Layer name="mq-ui">
          {guides.map((g) => (
            <Line
              key={`${g.axis}${g.at}`}
              points={g.axis === 'v' ? [g.at, -10000, g.at, 10000] : [-10000, g.at, 10000, g.at]}
              stroke="#ff4d4f"
              strokeWidth={1 / zoom}
              dash={[4 / zoom, 4 / zoom]}
              listening={false}
            />
          ))}
          <Transformer
            ref={trRef}
            rotateEnabled
            keepRatio={selected?.type === 'qr'}
            ignoreStroke
            boundBoxFunc={(oldBox, box) => (Math.abs(box.width) < 2 && Math.abs(box.height) < 2 ? oldBox : box)}
          />
        </Layer>
      )}
    </Stage>
  );
}
