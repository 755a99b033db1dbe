ALTER TABLE "settings" ADD COLUMN "terms_text" text DEFAULT 'Syarat dan Ketentuan

Dengan mendaftar, Anda setuju menggunakan layanan ini sesuai hukum yang berlaku dan tidak untuk spam, penipuan atau konten terlarang.

Akun WhatsApp yang Anda hubungkan tetap tanggung jawab Anda. Fee dibayar sesuai pengaturan yang berlaku dan dapat berubah sewaktu-waktu.

Admin dapat menangguhkan akun yang melanggar ketentuan ini.' NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "privacy_text" text DEFAULT 'Kebijakan Privasi

Kami menyimpan nama, email, data rekening dan data akun WhatsApp Anda hanya untuk menjalankan layanan dan membayar fee Anda.

Data Anda tidak dijual kepada pihak lain. Anda dapat meminta penghapusan data dengan menghubungi admin.' NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "support_contact" text DEFAULT 'Telegram: https://t.me/wablaster' NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "telegram_url" text DEFAULT 'https://t.me/wablaster' NOT NULL;