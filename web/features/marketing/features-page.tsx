export default function FeaturesPage() {
  return <main className="p-8 text-2xl font-semibold">Features</main>;
}
