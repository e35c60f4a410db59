// The application form's data and file rules (the same as the server's app/application CheckFile).
export type Profile = { name: string; email: string; position: string; linkedin: string; portfolio: string };

export type Kind = 'proof' | 'resume' | 'profilePic';

export type Picked = {
  id: number;
  file: File;
  kind: Kind;
  error: string | null;
  progress: number; // 0..1 while uploading
};

export type QuizResult = { score: number; passed: boolean; correctAnswers: number; total: number; timeSpent: number; attemptId?: string; fromQuiz?: boolean };

export const MAX_DESCRIPTION = 5000;

// The same rules as the server (app/application CheckFile): extension per kind, size,
// and the file's first bytes.
export const TYPES: Record<string, { label: string; magic: number[][]; image: boolean }> = {
  '.pdf': { label: 'PDF', magic: [[0x25, 0x50, 0x44, 0x46, 0x2d]], image: false },
  '.doc': { label: 'DOC', magic: [[0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]], image: false },
  '.docx': { label: 'DOCX', magic: [[0x50, 0x4b, 0x03, 0x04]], image: false },
  '.jpg': { label: 'JPEG', magic: [[0xff, 0xd8, 0xff]], image: true },
  '.jpeg': { label: 'JPEG', magic: [[0xff, 0xd8, 0xff]], image: true },
  '.png': { label: 'PNG', magic: [[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]], image: true },
};

export const ACCEPT: Record<Kind, string> = {
  proof: '.pdf,.doc,.docx,.jpg,.jpeg,.png',
  resume: '.pdf,.doc,.docx',
  profilePic: '.jpg,.jpeg,.png',
};

export function ext(name: string): string {
  const i = name.lastIndexOf('.');
  return i >= 0 ? name.slice(i).toLowerCase() : '';
}

/** Checks a file as the server will; answers the message or null. */
export async function checkFile(file: File, kind: Kind, maxBytes: number): Promise<string | null> {
  const q = `"${file.name}"`;
  if (file.size > maxBytes) return `${q} is larger than 10 MB. Each file can be at most 10 MB.`;
  const t = TYPES[ext(file.name)];
  if (kind === 'resume' && (!t || t.image)) return `Your resume ${q} must be a PDF, DOC or DOCX file.`;
  if (kind === 'profilePic' && (!t || !t.image)) return `Your profile picture ${q} must be a JPG or PNG image.`;
  if (!t) return `${q} is not an accepted file type. Upload PDF, DOC, DOCX, JPG, JPEG or PNG files.`;
  if (file.size === 0) return `${q} is empty.`;
  try {
    const head = new Uint8Array(await file.slice(0, 16).arrayBuffer());
    const ok = t.magic.some((m) => m.every((b, i) => head[i] === b));
    if (!ok) return `${q} is not a real ${t.label} file: its content does not match its extension.`;
  } catch {
    // unreadable here: the server decides
  }
  return null;
}

export const REQUIRED: { key: keyof Profile; label: string }[] = [
  { key: 'name', label: 'full name' },
  { key: 'email', label: 'email' },
  { key: 'position', label: 'position' },
  { key: 'linkedin', label: 'LinkedIn' },
];
