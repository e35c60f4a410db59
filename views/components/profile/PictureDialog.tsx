// The profile picture dialog: pick an image, drag and zoom it in the square, upload the
// cropped PNG (at most 512x512).
import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import Camera from 'lucide-react/icons/camera';
import ImageUp from 'lucide-react/icons/image-up';
import LoaderCircle from 'lucide-react/icons/loader-circle';
import Save from 'lucide-react/icons/save';
import ZoomIn from 'lucide-react/icons/zoom-in';
import { api, errorMessage } from '../../lib/api';
import { toast, toastError } from '../../lib/toast';
import { Button } from '../ui';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../dialog';
import { fromApi, type ApiUser, type User } from '../user';

export const VIEW = 256; // the crop square, CSS pixels

export const PREVIEW = 96; // the round preview

export const OUT = 512; // exported size (at most)

export const ZOOM_MIN = 1;

export const ZOOM_MAX = 3;

export type Src = { url: string; w: number; h: number; img: HTMLImageElement };

export type Crop = { zoom: number; x: number; y: number }; // x, y: the image's top-left in the square

export function scaleOf(src: Src, zoom: number) {
  return (VIEW / Math.min(src.w, src.h)) * zoom;
}

export function clamp(src: Src, c: Crop): Crop {
  const s = scaleOf(src, c.zoom);
  const minX = VIEW - src.w * s;
  const minY = VIEW - src.h * s;
  return { zoom: c.zoom, x: Math.min(0, Math.max(minX, c.x)), y: Math.min(0, Math.max(minY, c.y)) };
}

export function centred(src: Src): Crop {
  const s = scaleOf(src, 1);
  return { zoom: 1, x: (VIEW - src.w * s) / 2, y: (VIEW - src.h * s) / 2 };
}

/** Zooms about the centre of the square. */
export function zoomTo(src: Src, c: Crop, zoom: number): Crop {
  const z = Math.min(ZOOM_MAX, Math.max(ZOOM_MIN, zoom));
  const s0 = scaleOf(src, c.zoom);
  const s1 = scaleOf(src, z);
  const cx = (VIEW / 2 - c.x) / s0;
  const cy = (VIEW / 2 - c.y) / s0;
  return clamp(src, { zoom: z, x: VIEW / 2 - cx * s1, y: VIEW / 2 - cy * s1 });
}

/** Draws the cropped square into a PNG (at most 512x512). */
export function exportPNG(src: Src, c: Crop): Promise<Blob> {
  const s = scaleOf(src, c.zoom);
  const side = VIEW / s; // in source pixels
  const out = Math.max(1, Math.min(OUT, Math.round(side)));
  const canvas = document.createElement('canvas');
  canvas.width = out;
  canvas.height = out;
  const ctx = canvas.getContext('2d');
  if (!ctx) return Promise.reject(new Error('no canvas'));
  ctx.imageSmoothingQuality = 'high';
  ctx.drawImage(src.img, -c.x / s, -c.y / s, side, side, 0, 0, out, out);
  return new Promise((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('export failed'))), 'image/png'));
}

export function PictureDialog({ open, onOpenChange, onSaved }: { open: boolean; onOpenChange: (o: boolean) => void; onSaved: (u: User) => void }) {
  const [src, setSrc] = useState<Src | null>(null);
  const [crop, setCrop] = useState<Crop>({ zoom: 1, x: 0, y: 0 });
  const [busy, setBusy] = useState(false);
  const fileRef = useRef<HTMLInputElement>(null);
  const drag = useRef<{ px: number; py: number; x: number; y: number } | null>(null);

  // forget the picked image when the dialog closes (its object URL is released below)
  const [wasOpen, setWasOpen] = useState(open);
  if (open !== wasOpen) {
    setWasOpen(open);
    if (!open) setSrc(null);
  }
  // release a picked image's object URL once it is replaced, dropped or the dialog unmounts
  useEffect(() => {
    if (!src) return;
    return () => URL.revokeObjectURL(src.url);
  }, [src]);

  const choose = () => fileRef.current?.click();

  const picked = (file: File | undefined) => {
    if (!file) return;
    if (!file.type.startsWith('image/')) {
      toastError('Please choose an image file (PNG, JPEG, WebP…).', 'Not an image');
      return;
    }
    const url = URL.createObjectURL(file);
    const img = new Image();
    img.onload = () => {
      const s: Src = { url, w: img.naturalWidth, h: img.naturalHeight, img };
      setSrc(s);
      setCrop(centred(s));
    };
    img.onerror = () => {
      URL.revokeObjectURL(url);
      toastError('This file could not be read as an image. Please choose another.', 'Not an image');
    };
    img.src = url;
  };

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if (!src) return;
    e.currentTarget.setPointerCapture(e.pointerId);
    drag.current = { px: e.clientX, py: e.clientY, x: crop.x, y: crop.y };
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    if (!src || !drag.current) return;
    const d = drag.current;
    setCrop(clamp(src, { zoom: crop.zoom, x: d.x + e.clientX - d.px, y: d.y + e.clientY - d.py }));
  };
  const onPointerUp = () => {
    drag.current = null;
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (!src) return;
    const step = e.shiftKey ? 20 : 5;
    const moves: Record<string, [number, number]> = { ArrowLeft: [step, 0], ArrowRight: [-step, 0], ArrowUp: [0, step], ArrowDown: [0, -step] };
    if (moves[e.key]) {
      e.preventDefault();
      setCrop(clamp(src, { zoom: crop.zoom, x: crop.x + moves[e.key][0], y: crop.y + moves[e.key][1] }));
    } else if (e.key === '+' || e.key === '=') setCrop(zoomTo(src, crop, crop.zoom + 0.1));
    else if (e.key === '-') setCrop(zoomTo(src, crop, crop.zoom - 0.1));
  };

  const save = async () => {
    if (!src || busy) return;
    setBusy(true);
    try {
      const blob = await exportPNG(src, crop);
      const form = new FormData();
      form.append('profilePic', blob, 'profile.png');
      await api('/users/profile-pic', { method: 'POST', form, timeoutMs: 60000 });
      try {
        const me = await api<{ user: ApiUser }>('/auth/me');
        onSaved(fromApi(me.user));
      } catch {
        toastError('Your picture was saved, but the page could not refresh it. Reload to see it.');
        onOpenChange(false);
        return;
      }
      toast({ title: 'Profile picture updated', variant: 'success' });
      onOpenChange(false);
    } catch (err) {
      toastError(errorMessage(err, 'Please try again.'), 'Failed to update profile picture');
    } finally {
      setBusy(false);
    }
  };

  const s = src ? scaleOf(src, crop.zoom) : 1;
  const k = PREVIEW / VIEW;
  return (
    <Dialog open={open} onOpenChange={(o) => !busy && onOpenChange(o)}>
      <DialogContent className="max-w-xl" aria-describedby="pic-desc" data-testid="picture-dialog">
        <DialogHeader>
          <DialogTitle>Edit Profile Picture</DialogTitle>
          <DialogDescription id="pic-desc">
            {src ? 'Drag to position your picture and zoom to frame it. It is saved as a square.' : 'Choose an image from your device. You can crop and zoom it next.'}
          </DialogDescription>
        </DialogHeader>
        <input ref={fileRef} type="file" accept="image/*" className="sr-only" tabIndex={-1} aria-hidden="true" data-testid="picture-input" onChange={(e) => {
          picked(e.target.files?.[0]);
          e.target.value = '';
        }} />
        {!src ? (
          <button
            type="button"
            onClick={choose}
            className="flex h-56 w-full flex-col items-center justify-center gap-3 rounded-xl border-2 border-dashed text-muted-foreground transition-colors hover:border-primary hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
            onDragOver={(e) => e.preventDefault()}
            onDrop={(e) => {
              e.preventDefault();
              picked(e.dataTransfer.files?.[0]);
            }}
          >
            <ImageUp className="h-10 w-10" aria-hidden="true" />
            <span className="font-medium">Choose an image</span>
            <span className="text-xs">PNG, JPEG or WebP — or drop a file here</span>
          </button>
        ) : (
          <div className="flex flex-col items-center gap-6 sm:flex-row sm:items-start">
            <div className="space-y-4">
              <div
                role="application"
                aria-label="Crop area: drag or use the arrow keys to move the picture, + and - to zoom"
                tabIndex={0}
                className="relative cursor-grab touch-none overflow-hidden rounded-lg bg-muted ring-1 ring-border focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring active:cursor-grabbing"
                style={{ width: VIEW, height: VIEW }}
                onPointerDown={onPointerDown}
                onPointerMove={onPointerMove}
                onPointerUp={onPointerUp}
                onPointerCancel={onPointerUp}
                onKeyDown={onKeyDown}
                onWheel={(e) => setCrop(zoomTo(src, crop, crop.zoom - e.deltaY / 500))}
                data-testid="crop-area"
              >
                <img src={src.url} alt="" draggable={false} className="pointer-events-none absolute max-w-none select-none" style={{ left: crop.x, top: crop.y, width: src.w * s, height: src.h * s }} />
                {/* the round outline of what the avatar shows */}
                <div className="pointer-events-none absolute inset-0 rounded-full shadow-[0_0_0_9999px_rgba(0,0,0,0.35)] ring-2 ring-white/80" aria-hidden="true" />
              </div>
              <div className="flex items-center gap-3">
                <ZoomIn className="h-4 w-4 text-muted-foreground" aria-hidden="true" />
                <input
                  type="range"
                  min={ZOOM_MIN}
                  max={ZOOM_MAX}
                  step={0.01}
                  value={crop.zoom}
                  onChange={(e) => setCrop(zoomTo(src, crop, Number(e.target.value)))}
                  aria-label="Zoom"
                  className="h-2 w-full cursor-pointer accent-[var(--primary)]"
                  data-testid="zoom"
                />
                <span className="w-10 text-right text-xs tabular-nums text-muted-foreground">{crop.zoom.toFixed(1)}×</span>
              </div>
            </div>
            <div className="flex flex-col items-center gap-2">
              <div className="relative overflow-hidden rounded-full bg-muted ring-2 ring-border" style={{ width: PREVIEW, height: PREVIEW }} data-testid="round-preview">
                <img src={src.url} alt="Preview of your new profile picture" draggable={false} className="absolute max-w-none" style={{ left: crop.x * k, top: crop.y * k, width: src.w * s * k, height: src.h * s * k }} />
              </div>
              <span className="text-xs text-muted-foreground">Preview</span>
            </div>
          </div>
        )}
        <DialogFooter className="gap-2 sm:justify-between">
          {src ? (
            <Button type="button" variant="ghost" onClick={choose} disabled={busy}>
              <Camera aria-hidden="true" /> Choose Another
            </Button>
          ) : (
            <span />
          )}
          <div className="flex flex-col-reverse gap-2 sm:flex-row">
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)} disabled={busy}>
              Cancel
            </Button>
            <Button type="button" onClick={save} disabled={!src || busy} data-testid="picture-save">
              {busy ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <Save aria-hidden="true" />}
              {busy ? 'Saving...' : 'Save'}
            </Button>
          </div>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
