-- The demo shop's receiving address for the cards shoppers sell it (docs/buylist.md): shown in the
-- shipping instructions after a sale is submitted and on the packing slip. A real shop writes its
-- own in the back office ('Lista de compra').
update public.buylist_settings
   set ship_name = 'Cartas Mx · Compras',
       ship_street = 'Av. Álvaro Obregón 120, int. 4',
       ship_colonia = 'Roma Norte',
       ship_zip = '06700',
       ship_municipio = 'Cuauhtémoc',
       ship_state = 'Ciudad de México',
       ship_phone = '5555550120',
       ship_hours = 'Lunes a sábado de 12:00 a 20:00'
 where id;
