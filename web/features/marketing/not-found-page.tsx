export default function NotFoundPage() {
  return <main className="p-8 text-2xl font-semibold">NotFound</main>;
}
