export default function AboutPage() {
  return <main className="p-8 text-2xl font-semibold">About</main>;
}
