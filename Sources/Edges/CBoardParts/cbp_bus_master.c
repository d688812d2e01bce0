// A TWI master at the message level: the messages our TWI model (cbp_twi.c)
// sends the slaves, raised straight on the bus irqs with no core running and
// no bus time. For the bit-banged master heard on the pins (cbp_soft_i2c.c),
// and for tests of the part models (the display's RAM read-back, for one),
// which would otherwise need a sketch per case.
#include "CBoardParts.h"

#include <sim_avr.h>
#include <sim_irq.h>
#include <avr_twi.h>

static void cbp_bus_master_hear(avr_irq_t *irq, uint32_t value, void *context) {
    (void)irq;
    cbp_bus_answer *answer = context;
    cbp_twi_message m = cbp_twi_decode(value);
    if (m.conditions & TWI_COND_ACK) answer->ack = (m.data & 1) != 0;
    if (m.conditions & TWI_COND_READ) answer->data = m.data;
}

cbp_bus_answer cbp_bus_send(avr_t *avr, uint8_t conditions, uint8_t address_byte, uint8_t data) {
    cbp_bus_answer answer = { false, 0xFF };
    avr_irq_t *in = cbp_twi0_irq(avr, CBP_TWI_INPUT);
    avr_irq_register_notify(in, cbp_bus_master_hear, &answer);
    avr_raise_irq(cbp_twi0_irq(avr, CBP_TWI_OUTPUT), avr_twi_irq_msg(conditions, address_byte, data));
    avr_irq_unregister_notify(in, cbp_bus_master_hear, &answer);
    return answer;
}

bool cbp_bus_master_write(avr_t *avr, uint8_t address, const uint8_t *bytes, size_t count) {
    uint8_t sla = (uint8_t)(address << 1);
    bool acked = cbp_bus_send(avr, TWI_COND_START | TWI_COND_ADDR, sla, 0).ack;
    for (size_t i = 0; i < count && acked; i++) acked = cbp_bus_send(avr, TWI_COND_WRITE, sla, bytes[i]).ack;
    cbp_bus_send(avr, TWI_COND_STOP, sla, 0);
    return acked;
}

bool cbp_bus_master_read(avr_t *avr, uint8_t address, uint8_t *out, size_t count) {
    uint8_t sla = (uint8_t)(address << 1 | 1);
    bool acked = cbp_bus_send(avr, TWI_COND_START | TWI_COND_ADDR, sla, 0).ack;
    for (size_t i = 0; i < count; i++) {
        uint8_t more = i + 1 < count ? TWI_COND_ACK : 0;  // the master ACKs all but the last byte
        out[i] = acked ? cbp_bus_send(avr, TWI_COND_READ | more, sla, 0).data : 0xFF;
    }
    cbp_bus_send(avr, TWI_COND_STOP, sla, 0);
    return acked;
}
